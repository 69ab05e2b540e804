#include "cli/output_options.h"

#include <vector>

namespace prof::cli {
namespace {

// The option's values, repeated or comma-separated, kept as one comma list in `*target`.
CLI::Option* AddListOption(CLI::App* command, const std::string& names, std::string* target,
                           const std::string& help) {
  return command
      ->add_option_function<std::vector<std::string>>(
          names,
          [target](const std::vector<std::string>& values) {
            target->clear();
            for (const std::string& value : values) *target += (target->empty() ? "" : ",") + value;
          },
          help)
      ->delimiter(',')
      ->allow_extra_args(false);  // one value per option, so the report path stays positional
}

}  // namespace

void AddJobsOption(CLI::App* command, int* jobs) {
  command
      ->add_option("-j,--jobs", *jobs,
                   "Report files read at once, each by its own thread (default: the CPUs prof "
                   "may use)")
      ->check(CLI::PositiveNumber);
}

void AddOutputOptions(CLI::App* command, const std::string& item, OutputLists lists,
                      stats::OutputOptions* options) {
  if (lists == OutputLists::kNsysLists) {
    AddListOption(command, "-f,--format", &options->format,
                  "column, table, csv, tsv or json, with nsys's arguments (csv:nohdr, "
                  "column:nohdr:nolimit); a comma list or repeated: one per " +
                      item +
                      " in order, the last for the rest (default: column on stdout, csv "
                      "for files and commands)");
    AddListOption(command, "-o,--output", &options->output,
                  "'-' stdout, '@<command>' piped into a shell command, a file prefix "
                  "(<prefix>_<" +
                      item +
                      ">.<ext>), or '.': the report file's name as the prefix (rep.sqlite: "
                      "rep_<" +
                      item + ">.<ext>); a comma list or repeated, paired with -f")
        ->default_str("-");
  } else {
    command->add_option(
        "-f,--format", options->format,
        "column, table, csv, tsv or json, with nsys's arguments (csv:nohdr, column:nolimit) "
        "(default: column on stdout, csv for files)");
    command
        ->add_option(
            "-o,--output", options->output,
            "'-' for stdout, or a prefix: each " + item + " goes to <prefix>_<" + item + ">.<ext>")
        ->default_str("-");
  }
  command
      ->add_option("--timeunit", options->time_unit,
                   "Unit of the time columns: nsec, usec, msec, sec")
      ->default_str("nsec");
  command->add_flag("--force-overwrite", options->force_overwrite,
                    "Replace existing output files (--force-overwrite=false to refuse)");
  command->add_flag("-q,--quiet", options->quiet, "Print only errors");
}

}  // namespace prof::cli
