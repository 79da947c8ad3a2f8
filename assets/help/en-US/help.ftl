# The command line's help in English is clap's, made from the doc comments in
# src/cli/args.rs; this file is empty on purpose (see src/cli/help.rs).
