"""bench/run.py's modules: tools (what this machine has), workloads (what is run in which mode),
process (one measured run), rounds (interleaving), report_facts (what a report holds), summary
(medians), budget (the issue's budget lines) and table (the printed table and the JSON)."""
