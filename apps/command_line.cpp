#include "command_line.hpp"

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#if defined(KOKKOS_ENABLE_OPENMP)
#include <omp.h>
#endif

#include "backend/kokkos_compat.hpp"
#include "config/config_error.hpp"
#include "io/restart.hpp"

namespace ax {

namespace {

constexpr int kExitBadInput = 2;

const char* kExamples = R"(Examples:
  astronomix run configs/sedov3d.yaml                      3D Sedov blast, one rank
  mpirun -n 4 astronomix run configs/sedov3d.yaml          domain-decomposed over 4 ranks
  astronomix run configs/sod.yaml --set time.cfl=0.3 --set solver.riemann=hlle
  astronomix run configs/kelvin_helmholtz.yaml --set solver.family=fd
  astronomix check configs/blast3d.yaml --set 'mesh.cells=[256,256,256]'
                                                           validate, print the resolved config,
                                                           the memory per rank and the cost per step
  astronomix run --restart output/sedov3d/sedov3d.final.rst --set time.end=0.2
                                                           continue a run with the config its
                                                           checkpoint holds

A run is one YAML file (sections mesh, boundaries, time, physics, solver,
problem, output; ready-made ones in configs/, every key in README.md).
--set KEY=VALUE overrides any key, e.g. --set time.end=0.2; quote values with
brackets, braces or spaces for the shell: --set 'mesh.cells=[128,128,1]'.
Bad input stops before anything is written, naming file, line, key and what
was expected (exit code 2).

Kokkos' own options (--kokkos-num-threads=N, --kokkos-device-id=N, ...) go
to Kokkos, spelled as the Kokkos this was built with wants them (3.x:
--kokkos-threads, --kokkos-device); `astronomix --kokkos-help` lists them.
The run header says how many threads a rank got; with several ranks per
node set OMP_NUM_THREADS so that ranks x threads = cores.)";

bool is_kokkos_arg(const std::string& a) { return a.rfind("--kokkos-", 0) == 0; }

// The --kokkos-* options the Kokkos we were built with reads, and the other
// generation's spelling of the same option, which is translated: Kokkos 3.x
// reads --kokkos-threads and --kokkos-device, 4.x --kokkos-num-threads and
// --kokkos-device-id. Kokkos passes over a name it does not know (3.4 ran
// with its default thread count for --kokkos-num-threads=1), so a name
// outside this list is an error here.
struct KokkosOptionName {
  const char* name;
  const char* translated;  // nullptr: passed as it is
};
#if KOKKOS_VERSION < 40000
constexpr KokkosOptionName kKokkosOptions[] = {
    {"--kokkos-threads", nullptr},          {"--kokkos-num-threads", "--kokkos-threads"},
    {"--kokkos-numa", nullptr},             {"--kokkos-device", nullptr},
    {"--kokkos-device-id", nullptr},        {"--kokkos-ndevices", nullptr},
    {"--kokkos-num-devices", nullptr},      {"--kokkos-skip-device", nullptr},
    {"--kokkos-disable-warnings", nullptr}, {"--kokkos-help", nullptr},
    {"--kokkos-tools-args", nullptr},       {"--kokkos-tools-help", nullptr},
    {"--kokkos-tools-library", nullptr},    {"--kokkos-tune-internals", nullptr}};
#else
constexpr KokkosOptionName kKokkosOptions[] = {
    {"--kokkos-num-threads", nullptr},      {"--kokkos-threads", "--kokkos-num-threads"},
    {"--kokkos-device-id", nullptr},        {"--kokkos-device", "--kokkos-device-id"},
    {"--kokkos-map-device-id-by", nullptr},
#if KOKKOS_VERSION < 40600  // deprecated in 4.0, gone by 4.6
    {"--kokkos-num-devices", nullptr},
#endif
    {"--kokkos-disable-warnings", nullptr}, {"--kokkos-print-configuration", nullptr},
    {"--kokkos-help", nullptr},             {"--kokkos-tools-args", nullptr},
    {"--kokkos-tools-help", nullptr},       {"--kokkos-tools-libs", nullptr},
    {"--kokkos-tools-library", nullptr},    {"--kokkos-tune-internals", nullptr}};
#endif

// `arg` (--kokkos-NAME or --kokkos-NAME=VALUE) as this Kokkos spells it;
// false if NAME is not one of its options.
bool kokkos_spelling(const std::string& arg, std::string* spelled) {
  const std::size_t eq = arg.find('=');
  const std::string name = arg.substr(0, eq);
  for (const KokkosOptionName& o : kKokkosOptions) {
    if (name != o.name) continue;
    *spelled = o.translated ? std::string(o.translated) + (eq == std::string::npos ? "" : arg.substr(eq)) : arg;
    return true;
  }
  return false;
}

// "hh:mm:ss", "mm:ss" or seconds, as batch systems write limits; -1 if not.
// The first field may be any size (90:00 is 90 minutes); the others are
// below 60, and only the last may have a fraction.
double parse_wall_time(const std::string& text) {
  std::vector<std::string> fields;
  std::size_t at = 0;
  for (std::size_t colon; (colon = text.find(':', at)) != std::string::npos; at = colon + 1)
    fields.push_back(text.substr(at, colon - at));
  fields.push_back(text.substr(at));
  if (fields.size() > 3) return -1;
  double total = 0;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const std::string& f = fields[i];
    const bool last = i + 1 == fields.size();
    const std::size_t dot = f.find('.');
    const std::string whole = f.substr(0, dot), fraction = dot == std::string::npos ? "" : f.substr(dot + 1);
    const auto digits = [](const std::string& t) {
      return t.size() <= 12 && t.find_first_not_of("0123456789") == std::string::npos;
    };
    // "5", "5.5", "5." and ".5"; not "." nor a fraction before the last field.
    if (!digits(whole) || !digits(fraction) || whole.size() + fraction.size() == 0 ||
        (dot != std::string::npos && !last))
      return -1;
    const double x = std::stod(f);
    if (i > 0 && x >= 60) return -1;
    total = total * 60 + x;
  }
  return total > 0 ? total : -1;
}

// What CLI11 said as "The following arguments were not expected: b a"
// (in reverse order, no hint): the arguments as typed, and what the first
// was likely meant to be.
std::string unexpected_arguments(const std::vector<std::string>& extras, const std::string& command) {
  std::string msg = command + ": unexpected argument" + (extras.size() > 1 ? "s" : "");
  for (const std::string& a : extras) msg += " '" + a + "'";
  if (extras.empty()) return msg;
  const std::string& a = extras[0];
  if (a.size() > 1 && a[0] == '-') {
    const std::string name = a.substr(0, a.find('='));
    const std::string run_only[] = {"--wall-time", "--overwrite", "--no-memory-check", "-q", "--quiet"};
    for (const std::string& o : run_only)
      if (command == "check" && name == o) return msg + ": " + o + " is an option of run, not of check";
    const std::string options[] = {"--set", "--restart", "--wall-time", "--overwrite", "--quiet", "--no-memory-check"};
    const std::string s = did_you_mean(name, options, options + 6);
    return msg + ": unknown option" + (s.empty() ? "" : " (did you mean '" + s + "'?)") + "; astronomix " + command +
           " --help lists the options";
  }
  if (a.find('=') != std::string::npos)
    return msg + ": a key=value override is written --set " + a + " (quoted where the value holds brackets)";
  return msg + ": expected one config file (astronomix " + command + " CONFIG [--set KEY=VALUE ...])";
}

// Whether `a` is an Athena++ command-line override, block/key=value with
// an athinput block (time, mesh, meshblock, hydro, job, problem,
// outputN) and a plain key: not a path (those hold other characters or
// exist as files), so a config at sweep/nx=64/run.yaml stays one.
bool athena_override(const std::string& a, std::string* block, std::string* key, std::string* value) {
  const std::size_t slash = a.find('/'), eq = a.find('=');
  if (slash == std::string::npos || eq == std::string::npos || slash > eq) return false;
  *block = a.substr(0, slash);
  *key = a.substr(slash + 1, eq - slash - 1);
  *value = a.substr(eq + 1);
  auto plain = [](const std::string& w) {
    return !w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string::npos;
  };
  const bool output = block->size() > 6 && block->compare(0, 6, "output") == 0 &&
                      block->find_first_not_of("0123456789", 6) == std::string::npos;
  const bool known = output || *block == "time" || *block == "mesh" || *block == "meshblock" || *block == "hydro" ||
                     *block == "job" || *block == "problem";
  std::error_code ec;
  return known && plain(*key) && value->find('/') == std::string::npos && !std::filesystem::exists(a, ec);
}

// Kokkos' OpenMP backend keeps a fixed pool of 512 threads a process
// (OpenMPExec::MAX_THREAD_COUNT in 3.4, OpenMPTraits in 4.x) and crashed
// with a segfault at start-up when asked for more. A count the user chose
// (option or environment) above it is refused; a node's own count above
// it (one rank on a large node) is capped with a warning.
std::string host_thread_limit(const std::vector<std::string>& typed, CommandLine* cl) {
#if defined(KOKKOS_ENABLE_OPENMP)
  constexpr long kMax = 512;
  const std::string advice = "expected at most 512 threads a rank, the most Kokkos' OpenMP backend holds (run "
                             "more MPI ranks a node instead)";
  // The last such option is the one Kokkos takes, and an option wins over
  // the environment (the values are digits, checked before).
  const std::string* last = nullptr;
  for (const std::string& a : typed)
    for (const char* name : {"--kokkos-num-threads=", "--kokkos-threads="})
      if (a.rfind(name, 0) == 0) last = &a;
  if (last)
    return std::stol(last->substr(last->find('=') + 1)) > kMax
               ? last->substr(0, last->find('=')) + ": got " + last->substr(last->find('=') + 1) + "; " + advice
               : "";
  for (const char* var : {"KOKKOS_NUM_THREADS", "OMP_NUM_THREADS"}) {
    const char* v = std::getenv(var);
    if (!v || !*v) continue;
    // OMP_NUM_THREADS may list a count for each nesting level: the first is ours.
    const long n = std::strtol(v, nullptr, 10);
    if (n > kMax) return std::string("environment variable ") + var + "=" + v + ": " + advice;
    if (n > 0) return "";
  }
  if (omp_get_max_threads() > kMax) {
    cl->kokkos_args.push_back(KOKKOS_VERSION >= 40000 ? "--kokkos-num-threads=512" : "--kokkos-threads=512");
    cl->thread_cap_warning = "this node offers " + std::to_string(omp_get_max_threads()) +
                             " threads; Kokkos' OpenMP backend holds at most 512 a rank: running with 512 (set "
                             "OMP_NUM_THREADS, or run more MPI ranks a node)";
  }
#else
  (void)typed;
  (void)cl;
#endif
  return "";
}

}  // namespace

int parse_command_line(int argc, char** argv, bool print, CommandLine* cl) {
  std::vector<std::string> ours;  // CLI11 wants them in reverse order
  cl->kokkos_args.assign(1, argv[0]);
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (is_kokkos_arg(a)) {
      cl->kokkos_args.push_back(a);
      if (a == "--kokkos-help") cl->kokkos_help = true;
    } else {
      ours.push_back(a);
    }
  }
  if (cl->kokkos_help) return -1;

  CLI::App app{"astronomix: astrophysical hydrodynamics on CPUs and GPUs (Kokkos + MPI)", "astronomix"};
  app.set_version_flag("--version", "astronomix 0.1.0 (Kokkos " + ax::kokkos_version_text() + " on " +
                                         Kokkos::DefaultExecutionSpace::name() + ")");
  app.require_subcommand(1);
  app.footer(kExamples);
  // The config may be left out with --restart: the checkpoint holds it.
  auto add_common = [&](CLI::App* sub) {
    sub->add_option("config", cl->config, "YAML file describing the run (with --restart: optional)");
    sub->add_option("--set", cl->sets, "override a config key, e.g. --set time.cfl=0.3 (repeatable; a mapping, "
                                        "--set 'physics={gamma: 2}', sets the keys it names)")
        ->type_name("KEY=VALUE")
        ->expected(1)  // one a --set: a greedy --set took the config file after it as a second override
        ->allow_extra_args(false)
        ->take_all();
  };
  CLI::App* run = app.add_subcommand("run", "run a simulation: snapshots, history and a summary in output.directory");
  add_common(run);
  run->add_flag("-q,--quiet", cl->quiet,
                "print nothing but errors and where earlier files went (moved, or deleted by --overwrite; "
                "the summary still goes to <basename>.summary.json)");
  CLI::Option* overwrite = run->add_flag(
      "--overwrite", cl->overwrite,
      "delete the files an earlier run of the same output.directory and output.basename left "
      "(snapshots, checkpoints, history) before starting; without it they move to "
      "<output.directory>/earlier/<basename>.<date-time>/");
  bool no_memory_check = false;
  run->add_flag("--no-memory-check", no_memory_check,
                "start even if the memory the run needs exceeds what the node or GPU has free");
  CLI::Option* run_restart = run->add_option("--restart", cl->restart,
                  "continue from a checkpoint (<basename>.NNNNN.rst or .final.rst) of this config, or of the "
                  "config the checkpoint holds if none is given; " +
                      ax::restart_safe_keys_text() + " may change")
      ->type_name("FILE")
      ->excludes(overwrite);
  std::string wall_time;
  CLI::Option* wall_time_opt = run->add_option("--wall-time", wall_time,
                  "stop cleanly with a checkpoint before this much wall time has passed (hh:mm:ss or seconds); "
                  "SIGTERM, SIGINT and SIGUSR1 stop the same way")
      ->type_name("HH:MM:SS");
  run->footer("Example: astronomix run configs/sedov3d.yaml --set output.dt=0.01 --set output.restart_dt=0.01\n"
              "         mpirun -n 2 astronomix run configs/blast3d.yaml\n"
              "         astronomix run configs/sedov3d.yaml --restart output/sedov3d/sedov3d.final.rst "
              "--set time.end=0.2\n"
              "         astronomix run --restart output/sedov3d/sedov3d.00002.rst   (the config it was made with)");
  CLI::App* check =
      app.add_subcommand("check", "validate a config; print it resolved, the memory per rank and the cost per step");
  add_common(check);
  check->add_flag("-q,--quiet", cl->quiet,
                  "print nothing but warnings and errors: the exit code says whether the config is valid (0) or "
                  "not (2); a warning says if run would still refuse it for memory");
  CLI::Option* check_restart = check->add_option("--restart", cl->restart,
                    "also check that the run can continue from this checkpoint (what `run --restart` checks)")
      ->type_name("FILE");
  check->footer("Example: astronomix check configs/sedov3d.yaml --set 'mesh.cells=[512,512,512]'\n"
                "         mpirun -n 8 astronomix check configs/sedov3d.yaml   (as the 8-rank run would see it)\n"
                "         astronomix check --restart output/sedov3d/sedov3d.final.rst --set time.end=0.2");

  auto fail = [&](const std::string& msg) {
    if (print)
      std::cerr << "astronomix: error: " << msg << "\n"
                << "usage: astronomix run|check <config.yaml> [--set KEY=VALUE ...] [--restart FILE]\n"
                   "       astronomix run|check --restart FILE [--set KEY=VALUE ...]; astronomix --help for more"
                << std::endl;
    return kExitBadInput;
  };
  // Kokkos' numeric options, which Kokkos itself reads leniently (a thread
  // count of 'abc' or 0 ran with its default).
  for (std::size_t i = 1; i < cl->kokkos_args.size(); ++i) {
    const std::string& a = cl->kokkos_args[i];
    for (const char* name : {"--kokkos-num-threads", "--kokkos-threads", "--kokkos-device-id", "--kokkos-num-devices"}) {
      const std::string n = name;
      if (a != n && a.rfind(n + "=", 0) != 0) continue;
      const std::string v = a.size() > n.size() ? a.substr(n.size() + 1) : "";
      const bool id = n == "--kokkos-device-id";
      const bool digits = !v.empty() && v.size() < 10 && v.find_first_not_of("0123456789") == std::string::npos;
      if (!digits || (!id && std::stol(v) == 0))
        return fail(n + ": got '" + (a == n ? std::string("(no value)") : v) + "', expected " + n +
                    (id ? "=N with N >= 0" : "=N with N >= 1"));
    }
  }
  // Names after values: a value error names the option as it was typed.
  const std::vector<std::string> typed_kokkos_args = cl->kokkos_args;
  for (std::size_t i = 1; i < cl->kokkos_args.size(); ++i) {
    std::string& a = cl->kokkos_args[i];
    std::string spelled;
    if (!kokkos_spelling(a, &spelled)) {
      std::vector<std::string> names;
      for (const KokkosOptionName& o : kKokkosOptions) names.push_back(o.name);
      const std::string name = a.substr(0, a.find('='));
      const std::string s = did_you_mean(name, names.data(), names.data() + names.size());
      return fail("unknown Kokkos option '" + name + "'" + (s.empty() ? "" : " (did you mean '" + s + "'?)") +
                  "; astronomix --kokkos-help lists the options of Kokkos " + std::to_string(KOKKOS_VERSION / 10000) +
                  "." + std::to_string(KOKKOS_VERSION / 100 % 100));
    }
    a = spelled;
  }
  // `astronomix help` as git and cargo take it.
  if (!ours.empty() && ours[0] == "help") ours[0] = "--help";
  // Name a mistyped command instead of CLI11's generic complaint.
  if (!ours.empty() && ours[0][0] != '-' && ours[0] != "run" && ours[0] != "check") {
    const std::string commands[2] = {"run", "check"};
    const std::string s = did_you_mean(ours[0], commands, commands + 2);
    return fail("unknown command '" + ours[0] + "'" + (s.empty() ? "" : " (did you mean '" + s + "'?)") +
                "; expected run or check");
  }
  // Athena++'s command-line habits, named with what they are here
  // (CLI11 said only "The following argument was not expected").
  for (std::size_t i = 0; i < ours.size(); ++i) {
    const std::string& a = ours[i];
    static const char* const flags[][2] = {{"-r", "--restart FILE"},
                                           {"-i", "the config file after run or check"},
                                           {"-d", "--set output.directory=DIR"},
                                           {"-t", "--wall-time hh:mm:ss"},
                                           {"-n", "astronomix check CONFIG"}};
    for (const auto& f : flags)
      if (a == f[0]) return fail("unknown option " + a + " (Athena++'s " + a + " is " + f[1] + " here; docs/athena.md)");
    std::string block, key, value;
    if ((i == 0 || ours[i - 1] != "--restart") && athena_override(a, &block, &key, &value)) {
      const std::string here = athena_counterpart(block, key, {});
      // The section's name here where it is one (hydro: physics, output2: output).
      std::string section = block == "problem" ? "problem" : athena_counterpart("", block, {});
      if (section.empty() || section.find_first_of(" .") != std::string::npos) section = block;
      std::string hint;
      if (!here.empty()) hint = ", and Athena++'s " + key + " is " + here;
      else if (block == "problem") hint = " under this problem's name for " + key + " (docs/problems.md)";
      else hint = " (--set " + section + "." + key + "=" + value + ")";
      return fail("'" + a + "' is an Athena++ block/key=value override; here it is --set SECTION.KEY=VALUE" + hint +
                  " (docs/athena.md)");
    }
  }
  try {
    std::vector<std::string> reversed(ours.rbegin(), ours.rend());
    app.parse(reversed);
  } catch (const CLI::Success& e) {  // --help, --version
    if (!print) return 0;
    return app.exit(e);
  } catch (const CLI::ExtrasError&) {
    return fail(unexpected_arguments(app.remaining(true), run->parsed() ? "run" : "check"));
  } catch (const CLI::ParseError& e) {
    return fail(e.what());
  }
  cl->command = run->parsed() ? "run" : "check";
  // An empty value is what a job script passes for an unset variable
  // (--restart "$RST"): it started a new run over the old one's files, or
  // ran with no time limit.
  for (const CLI::Option* o : {run_restart, check_restart, wall_time_opt})
    if (o->count() > 0 && o->as<std::string>().empty())
      return fail(o->get_name() + ": got an empty value; expected " +
                  (o == wall_time_opt ? "hh:mm:ss, mm:ss or seconds > 0" : "a checkpoint file (<basename>.NNNNN.rst)") +
                  " (an unset variable in a job script?)");
  if (cl->config.empty() && cl->restart.empty())
    return fail(cl->command + ": a config file is required (or --restart CHECKPOINT, which holds its config)");
  cl->memory_check = !no_memory_check;
  if (!wall_time.empty()) {
    cl->wall_time_s = parse_wall_time(wall_time);
    if (cl->wall_time_s <= 0)
      return fail("--wall-time: '" + wall_time +
                  "' is not a duration; expected hh:mm:ss, mm:ss or seconds > 0 (minutes and seconds below 60 "
                  "after the first field)");
  }
  // Only for run and check, which start Kokkos (--help and --version do not).
  if (const std::string e = host_thread_limit(typed_kokkos_args, cl); !e.empty()) return fail(e);
  return -1;
}

}  // namespace ax
