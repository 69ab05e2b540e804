#include "cli/output_options.h"

namespace prof::cli {

void AddOutputOptions(CLI::App* command, const std::string& item, stats::OutputOptions* options) {
  command->add_option("-f,--format", options->format,
                      "column, table, csv, tsv or json (default: column on stdout, csv for files)");
  command
      ->add_option(
          "-o,--output", options->output,
          "'-' for stdout, or a prefix: each " + item + " goes to <prefix>_<" + item + ">.<ext>")
      ->default_str("-");
  command
      ->add_option("--timeunit", options->time_unit,
                   "Unit of the time columns: nsec, usec, msec, sec")
      ->default_str("nsec");
  command->add_flag("--force-overwrite", options->force_overwrite,
                    "Replace existing output files (--force-overwrite=false to refuse)");
  command->add_flag("-q,--quiet", options->quiet, "Print only errors");
}

}  // namespace prof::cli
