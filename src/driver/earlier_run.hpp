// The files an earlier run left under the same output.directory and
// output.basename. A new run (not a restart) would overwrite some of them
// and leave the rest beside its own: snapshots of two runs in one series,
// a history cut short. So a new run first moves them aside, or deletes them
// with --overwrite; a restart continues them instead, moving aside only the
// numbers it will write again.
#pragma once

#include <string>
#include <vector>

#include "backend/comm.hpp"
#include "config/config.hpp"

namespace ax {

// Names (not paths) of the files in dir that a run with this basename
// writes: <basename>.out1.NNNNN.athdf and their .xdmf, NNNNN.rst,
// final.rst, history.csv, summary.json, emergency.athdf, and any of them
// with .tmp (a write cut off). Sorted; empty where dir does not exist.
std::vector<std::string> earlier_run_files(const std::string& dir, const std::string& basename);

// Collective. Moves those files into <output.directory>/earlier/
// <basename>.<date-time>/ (nothing is lost, no series mixes two runs, and
// the same command run twice still works), or deletes them (overwrite), and
// says which on rank 0, even with --quiet. Throws ConfigError on every rank
// if a file cannot be moved or deleted.
void make_room_for_new_run(const Config& cfg, const Comm& comm, bool overwrite);

// Collective. A continued run numbers its snapshots from the checkpoint's
// snapshot index and its checkpoints from its restart index, as the run
// that wrote the checkpoint would have gone on. Files of those numbers that
// the earlier run left (its closing snapshot, off the schedule, or a longer
// run's later outputs), and its final.rst, are moved aside the same way
// instead of overwritten:
// a continued run used to replace the closing snapshot with another time's.
// So is an emergency snapshot. Where the earlier run's history goes past the
// checkpoint's `step` it is copied beside them (the continued run cuts it
// back), and the summary (which it rewrites) wherever anything goes aside.
// `checkpoint` (the file read) is never moved.
void make_room_for_continued_run(const Config& cfg, const Comm& comm, int snapshot_index, int restart_index,
                                 long long step, const std::string& checkpoint);

}  // namespace ax
