#include "command_line.hpp"

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <iostream>

#include "config/config_error.hpp"

namespace ax {

namespace {

constexpr int kExitBadInput = 2;

const char* kExamples = R"(Examples:
  astronomix run configs/sedov3d.yaml                      3D Sedov blast, one rank
  mpirun -n 4 astronomix run configs/sedov3d.yaml          domain-decomposed over 4 ranks
  astronomix run configs/sod.yaml --set time.cfl=0.3 --set solver.riemann=hlle
  astronomix run configs/kelvin_helmholtz.yaml --set solver.family=fd
  astronomix check configs/blast3d.yaml --set mesh.cells=[256,256,256]
                                                           validate, print the resolved config,
                                                           the memory per rank and the cost per step

A run is one YAML file (sections mesh, boundaries, time, physics, solver,
problem, output; ready-made ones in configs/, every key in README.md).
--set KEY=VALUE overrides any key, e.g. --set mesh.cells=[128,128,1].
Bad input stops before anything is written, naming file, line, key and what
was expected (exit code 2).

Kokkos' own options (--kokkos-num-threads=N, --kokkos-device-id=N, ...) go to
Kokkos; `astronomix --kokkos-help` lists them. With several ranks per node set
OMP_NUM_THREADS so that ranks x threads = cores.)";

bool is_kokkos_arg(const std::string& a) { return a.rfind("--kokkos-", 0) == 0; }

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
  const int kv = KOKKOS_VERSION;  // e.g. 30401 or 40600
  app.set_version_flag("--version", "astronomix 0.1.0 (Kokkos " + std::to_string(kv / 10000) + "." +
                                        std::to_string(kv / 100 % 100) + "." + std::to_string(kv % 100) + ")");
  app.require_subcommand(1);
  app.footer(kExamples);
  auto add_common = [&](CLI::App* sub) {
    sub->add_option("config", cl->config, "YAML file describing the run")->required();
    sub->add_option("--set", cl->sets, "override a config key, e.g. --set time.cfl=0.3 (repeatable)")
        ->type_name("KEY=VALUE")
        ->take_all();
  };
  CLI::App* run = app.add_subcommand("run", "run a simulation: snapshots, history and a summary in output.directory");
  add_common(run);
  run->add_flag("-q,--quiet", cl->quiet, "no set-up and progress lines (errors still print)");
  bool no_memory_check = false;
  run->add_flag("--no-memory-check", no_memory_check,
                "start even if the memory the run needs exceeds what the node or GPU has free");
  run->footer("Example: astronomix run configs/sedov3d.yaml --set output.dt=0.01\n"
              "         mpirun -n 2 astronomix run configs/blast3d.yaml");
  CLI::App* check =
      app.add_subcommand("check", "validate a config; print it resolved, the memory per rank and the cost per step");
  add_common(check);
  check->footer("Example: astronomix check configs/sedov3d.yaml --set mesh.cells=[512,512,512]\n"
                "         mpirun -n 8 astronomix check configs/sedov3d.yaml   (as the 8-rank run would see it)");

  auto fail = [&](const std::string& msg) {
    if (print)
      std::cerr << "astronomix: error: " << msg << "\n"
                << "usage: astronomix run|check <config.yaml> [--set KEY=VALUE ...]; astronomix --help for more"
                << std::endl;
    return kExitBadInput;
  };
  // Name a mistyped command instead of CLI11's generic complaint.
  if (!ours.empty() && ours[0][0] != '-' && ours[0] != "run" && ours[0] != "check") {
    const std::string commands[2] = {"run", "check"};
    const std::string s = did_you_mean(ours[0], commands, commands + 2);
    return fail("unknown command '" + ours[0] + "'" + (s.empty() ? "" : " (did you mean '" + s + "'?)") +
                "; expected run or check");
  }
  try {
    std::vector<std::string> reversed(ours.rbegin(), ours.rend());
    app.parse(reversed);
  } catch (const CLI::Success& e) {  // --help, --version
    if (!print) return 0;
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(e.what());
  }
  cl->command = run->parsed() ? "run" : "check";
  cl->memory_check = !no_memory_check;
  return -1;
}

}  // namespace ax
