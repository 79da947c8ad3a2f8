//! The command line's help and usage errors in the clerk's language. English is clap's,
//! made from the doc comments in args.rs; Spanish is laid over the same definition from
//! `assets/help/es-CL/help.ftl`, key by key (a test holds the two to each other: every
//! command, argument and value has its Spanish, and no Spanish is left unused). Clap has
//! no translations of its own words ("Usage", "Options", its errors): those are set here.

use super::args::Cli;
use crate::i18n::{Lang, help_text};
use clap::builder::{Resettable, StyledStr};
use clap::error::{ContextKind, ContextValue, ErrorFormatter, ErrorKind};
use clap::{Arg, ArgAction, Command, CommandFactory, FromArgMatches, Parser};
use std::ffi::OsString;

/// The language `--lang` names among `args` (`--lang es`, `--lang=es`), else the system's:
/// the help and a usage error are said before clap has read anything.
pub fn lang_of(args: &[OsString]) -> Lang {
    let mut named = None;
    let mut it = args.iter().skip(1).map(|a| a.to_string_lossy());
    while let Some(a) = it.next() {
        if a == "--" {
            break;
        }
        let value = match a.strip_prefix("--lang") {
            Some("") => it.next().map(|v| v.to_string()),
            Some(rest) => rest.strip_prefix('=').map(str::to_string),
            None => None,
        };
        match value.as_deref() {
            Some("es") => named = Some(Lang::Es),
            Some("en") => named = Some(Lang::En),
            _ => {}
        }
    }
    named.unwrap_or_else(Lang::from_os)
}

/// Why the arguments were not read: clap's own stop (the version, a usage error, the
/// help in English), or the help in Spanish.
#[derive(Debug)]
pub enum Stop {
    /// As clap prints it.
    Clap(clap::Error),
    /// A usage error in Spanish.
    Spanish(clap::error::Error<InSpanish>),
    /// The Spanish help: asked for (stdout, exit 0), or shown for a command given
    /// without its subcommand (stderr, exit 2, as clap does).
    Help {
        /// The help.
        text: String,
        /// Shown because something was missing.
        missing: bool,
    },
}

/// The arguments read, or the process ends as clap ends it (help, version: 0; a usage
/// error: 2, `Exit::Usage`), in `lang`.
pub fn parse_or_exit(args: Vec<OsString>, lang: Lang) -> Cli {
    match parse(args, lang) {
        Ok(cli) => cli,
        Err(Stop::Clap(e)) => e.exit(),
        Err(Stop::Spanish(e)) => e.exit(),
        Err(Stop::Help { text, missing }) => {
            use std::io::Write as _;
            if missing {
                let _ = std::io::stderr().write_all(text.as_bytes());
                std::process::exit(i32::from(super::Exit::Usage.code()))
            }
            let _ = std::io::stdout().write_all(text.as_bytes());
            std::process::exit(0)
        }
    }
}

/// [`parse_or_exit`] without the exit.
pub fn parse(mut args: Vec<OsString>, lang: Lang) -> Result<Cli, Stop> {
    if lang == Lang::En {
        return Cli::try_parse_from(args).map_err(Stop::Clap);
    }
    // clap's own `help` subcommand is English; `help create` is `create --help`.
    if args.get(1).is_some_and(|a| a == "help") {
        args.remove(1);
        args.push("--help".into());
    }
    let matches = command_in(lang)
        .try_get_matches_from(args)
        .map_err(spanish_error)?;
    Cli::from_arg_matches(&matches).map_err(spanish_error)
}

/// The whole definition in `lang`: clap's in English, Spanish laid over it.
pub fn command_in(lang: Lang) -> Command {
    let cmd = Cli::command();
    match lang {
        Lang::En => cmd,
        Lang::Es => {
            let after = format!(
                "{}\n\n{}",
                super::exit::Exit::help_in(Lang::Es),
                text("help-after-root")
            );
            let version = Arg::new("version")
                .short('V')
                .long("version")
                .action(ArgAction::Version)
                .help(text("help-flag-version"))
                .help_heading(text("help-heading-options"));
            spanish(cmd, "root", &mut Vec::new())
                .after_help(after)
                .after_long_help(Resettable::Reset)
                .disable_version_flag(true)
                .arg(version)
        }
    }
}

/// The Spanish of `key`; a missing key is the test's to find, never a panic here.
fn text(key: &str) -> String {
    help_text(Lang::Es, key).unwrap_or_default()
}

/// Every key the Spanish definition looks up and what it found, for the test: a command
/// path ("root", "journal-init") or an argument with what its English says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Looked {
    /// The keys tried, the specific one first.
    pub keys: Vec<String>,
    /// The English it stands for.
    pub english: String,
    /// Whether one of them was found.
    pub found: bool,
}

/// The Spanish of the first of `keys` there is, noted in `seen`.
fn first_of(keys: Vec<String>, english: String, seen: &mut Vec<Looked>) -> String {
    let found = keys.iter().find_map(|k| help_text(Lang::Es, k));
    seen.push(Looked {
        keys,
        english,
        found: found.is_some(),
    });
    found.unwrap_or_default()
}

/// Every lookup the Spanish definition makes (for the test).
pub fn spanish_lookups() -> Vec<Looked> {
    let mut seen = Vec::new();
    let _ = spanish(Cli::command(), "root", &mut seen);
    for key in ["help-after-root", "help-flag-help", "help-flag-version"] {
        let english = key.to_string();
        first_of(vec![key.to_string()], english, &mut seen);
    }
    seen
}

/// Fluent's ids take letters, digits and hyphens.
fn key_part(s: &str) -> String {
    s.replace('_', "-").to_lowercase()
}

fn english_of(help: Option<&StyledStr>, long: Option<&StyledStr>) -> String {
    long.or(help).map(|s| s.to_string()).unwrap_or_default()
}

/// `cmd` (at `path`) and everything under it in Spanish.
fn spanish(mut cmd: Command, path: &str, seen: &mut Vec<Looked>) -> Command {
    let english = english_of(cmd.get_about(), cmd.get_long_about());
    let about = first_of(vec![format!("help-cmd-{path}")], english, seen);
    cmd = cmd
        .about(about)
        .long_about(Resettable::Reset)
        .help_template("{before-help}{about-with-newline}\nUso: {usage}\n\n{all-args}{after-help}")
        .subcommand_help_heading(text("help-heading-commands"))
        .subcommand_value_name(text("help-value-command"))
        .disable_help_flag(true)
        .disable_help_subcommand(true);
    if cmd.get_after_help().is_some() && path != "root" {
        let english = english_of(cmd.get_after_help(), cmd.get_after_long_help());
        let after = first_of(vec![format!("help-after-{path}")], english, seen);
        cmd = cmd.after_help(after).after_long_help(Resettable::Reset);
    }
    let ids: Vec<String> = cmd
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .collect();
    for id in ids {
        cmd = cmd.mut_arg(&id, |a| spanish_arg(a, path, seen));
    }
    cmd = cmd.arg(
        Arg::new("help")
            .short('h')
            .long("help")
            .action(ArgAction::Help)
            .help(text("help-flag-help"))
            .help_heading(text("help-heading-options")),
    );
    let subs: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in subs {
        let sub_path = match path {
            "root" => key_part(&name),
            _ => format!("{path}-{}", key_part(&name)),
        };
        cmd = cmd.mut_subcommand(&name, |s| spanish(s, &sub_path, seen));
    }
    cmd
}

/// One argument in Spanish: its help (with its values and default said in Spanish, as
/// clap says them in English), its value's name, its heading.
fn spanish_arg(a: Arg, path: &str, seen: &mut Vec<Looked>) -> Arg {
    let id = key_part(a.get_id().as_str());
    let english = english_of(a.get_help(), a.get_long_help());
    let mut help = first_of(
        vec![format!("help-arg-{path}--{id}"), format!("help-arg--{id}")],
        english,
        seen,
    );
    let takes_value = a.get_num_args().is_none_or(|n| n.takes_values())
        && matches!(a.get_action(), ArgAction::Set | ArgAction::Append);
    let values: Vec<String> = if !takes_value || a.is_hide_possible_values_set() {
        Vec::new()
    } else {
        a.get_possible_values()
            .iter()
            .filter(|v| !v.is_hide_set())
            .map(|v| {
                let name = v.get_name();
                let english = v.get_help().map(|h| h.to_string()).unwrap_or_default();
                let said = first_of(
                    vec![
                        format!("help-possible-{path}--{id}--{}", key_part(name)),
                        format!("help-possible--{id}--{}", key_part(name)),
                    ],
                    english,
                    seen,
                );
                format!("{name} ({said})")
            })
            .collect()
    };
    if !values.is_empty() {
        help.push_str(&format!(
            " [{}: {}]",
            text("help-possible-values"),
            values.join("; ")
        ));
    }
    let defaults: Vec<String> = a
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().to_string())
        .collect();
    if takes_value && !defaults.is_empty() && !a.is_hide_default_value_set() {
        let shown = defaults.join(",");
        let shown = if shown.is_empty() {
            "\"\"".into()
        } else {
            shown
        };
        help.push_str(&format!(" [{}: {shown}]", text("help-default")));
    }
    let heading = if a.is_positional() {
        "help-heading-arguments"
    } else {
        "help-heading-options"
    };
    let mut a = a
        .help(help)
        .long_help(Resettable::Reset)
        .help_heading(text(heading));
    if takes_value {
        a = a.hide_possible_values(true).hide_default_value(true);
        let name = first_of(
            vec![format!("help-value--{id}")],
            format!("value of --{id}"),
            seen,
        );
        a = a.value_name(name);
    }
    a
}

/// A usage error in Spanish; the help as it is (the Spanish definition's) but for clap's
/// "[OPTIONS]" in its usage line.
fn spanish_error(e: clap::Error) -> Stop {
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            use std::io::IsTerminal as _;
            let missing = e.kind() != ErrorKind::DisplayHelp;
            let styled = e.render();
            let colour = match missing {
                false => std::io::stdout().is_terminal(),
                true => std::io::stderr().is_terminal(),
            };
            let text = match colour {
                true => styled.ansi().to_string(),
                false => styled.to_string(),
            };
            Stop::Help {
                text: options_in_spanish(&text),
                missing,
            }
        }
        ErrorKind::DisplayVersion => Stop::Clap(e),
        _ => Stop::Spanish(e.apply::<InSpanish>()),
    }
}

fn options_in_spanish(usage: &str) -> String {
    usage.replace("[OPTIONS]", &format!("[{}]", text("help-value-options")))
}

/// Clap's error in Spanish (clap's `RichFormatter`, word for word in the other language).
pub struct InSpanish;

impl ErrorFormatter for InSpanish {
    fn format_error(error: &clap::error::Error<Self>) -> StyledStr {
        let s = |k: ContextKind| match error.get(k) {
            Some(ContextValue::String(v)) => Some(v.clone()),
            _ => None,
        };
        let list = |k: ContextKind| match error.get(k) {
            Some(ContextValue::Strings(v)) => v.clone(),
            _ => Vec::new(),
        };
        let n = |k: ContextKind| match error.get(k) {
            Some(ContextValue::Number(v)) => Some(*v),
            _ => None,
        };
        let arg = s(ContextKind::InvalidArg).unwrap_or_default();
        let value = s(ContextKind::InvalidValue).unwrap_or_default();
        let say = |key: &str, args: &[(&'static str, String)]| {
            crate::i18n::help_text_args(Lang::Es, key, args).unwrap_or_default()
        };
        let mut out = match error.kind() {
            ErrorKind::ArgumentConflict => {
                let prior = s(ContextKind::PriorArg)
                    .or_else(|| Some(list(ContextKind::PriorArg).join(", ")))
                    .filter(|p| !p.is_empty());
                match prior {
                    Some(p) if p == arg => say("help-error-repeated", &[("arg", arg)]),
                    Some(p) => say("help-error-conflict", &[("arg", arg), ("other", p)]),
                    None => say("help-error-conflict-any", &[("arg", arg)]),
                }
            }
            ErrorKind::NoEquals => say("help-error-no-equals", &[("arg", arg)]),
            ErrorKind::InvalidValue if value.is_empty() => {
                say("help-error-value-missing", &[("arg", arg)])
            }
            ErrorKind::InvalidValue => {
                let mut t = say("help-error-value", &[("arg", arg), ("value", value)]);
                let valid = list(ContextKind::ValidValue);
                if !valid.is_empty() {
                    t.push_str(&format!(
                        "\n  [{}: {}]",
                        text("help-possible-values"),
                        valid.join(", ")
                    ));
                }
                t
            }
            ErrorKind::ValueValidation => {
                let mut t = say("help-error-value", &[("arg", arg), ("value", value)]);
                if let Some(why) = std::error::Error::source(error) {
                    t.push_str(&format!(": {why}"));
                }
                t
            }
            ErrorKind::InvalidSubcommand => say(
                "help-error-command",
                &[(
                    "command",
                    s(ContextKind::InvalidSubcommand).unwrap_or_default(),
                )],
            ),
            ErrorKind::MissingRequiredArgument => {
                let missing = list(ContextKind::InvalidArg);
                let lines: Vec<String> = missing.iter().map(|m| format!("\n  {m}")).collect();
                format!("{}{}", say("help-error-missing", &[]), lines.concat())
            }
            ErrorKind::MissingSubcommand => say(
                "help-error-command-missing",
                &[(
                    "command",
                    s(ContextKind::InvalidSubcommand).unwrap_or_default(),
                )],
            ),
            ErrorKind::TooManyValues => {
                say("help-error-too-many", &[("arg", arg), ("value", value)])
            }
            ErrorKind::TooFewValues | ErrorKind::WrongNumberOfValues => say(
                "help-error-how-many",
                &[
                    ("arg", arg),
                    (
                        "expected",
                        n(ContextKind::ExpectedNumValues)
                            .or(n(ContextKind::MinValues))
                            .unwrap_or(0)
                            .to_string(),
                    ),
                    (
                        "given",
                        n(ContextKind::ActualNumValues).unwrap_or(0).to_string(),
                    ),
                ],
            ),
            ErrorKind::UnknownArgument => say("help-error-unknown", &[("arg", arg)]),
            ErrorKind::InvalidUtf8 => say("help-error-utf8", &[]),
            _ => say("help-error-other", &[]),
        };
        // One suggestion is a String, several (a subcommand's) Strings.
        let suggested = [
            ContextKind::SuggestedArg,
            ContextKind::SuggestedSubcommand,
            ContextKind::SuggestedValue,
        ]
        .into_iter()
        .find_map(|k| s(k).or_else(|| Some(list(k).join("', '")).filter(|l| !l.is_empty())));
        if let Some(like) = suggested {
            out.push_str(&format!(
                "\n\n  {}",
                say("help-error-did-you-mean", &[("like", like)])
            ));
        }
        let mut styled = StyledStr::new();
        styled.push_str(&format!("error: {out}"));
        if let Some(ContextValue::StyledStr(usage)) = error.get(ContextKind::Usage) {
            let usage = usage.to_string();
            let usage = options_in_spanish(usage.strip_prefix("Usage: ").unwrap_or(&usage));
            styled.push_str(&format!("\n\nUso: {usage}"));
        }
        styled.push_str(&format!("\n\n{}\n", say("help-error-more", &[])));
        styled
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[test]
    fn the_language_of_the_help_is_the_one_lang_names() {
        assert_eq!(lang_of(&os(&["x", "--lang", "es", "create"])), Lang::Es);
        assert_eq!(lang_of(&os(&["x", "create", "--lang=en"])), Lang::En);
        assert_eq!(
            lang_of(&os(&["x", "--lang", "es", "--lang", "en"])),
            Lang::En
        );
    }

    /// Every command, argument and value has its Spanish; where one key serves several
    /// commands (`help-arg--customer`), their English is the same text (else each needs
    /// its own); and no key of the help file is unused.
    #[test]
    fn every_word_of_the_help_has_its_spanish_and_none_is_left_over() {
        let seen = spanish_lookups();
        let missing: Vec<String> = seen
            .iter()
            .filter(|l| !l.found)
            .map(|l| format!("{} = {}", l.keys[0], l.english.replace('\n', " ")))
            .collect();
        assert!(
            missing.is_empty(),
            "no Spanish for:\n{}",
            missing.join("\n")
        );
        let mut by_key: std::collections::HashMap<String, Vec<&str>> = Default::default();
        for l in &seen {
            let used = l
                .keys
                .iter()
                .find(|k| help_text(Lang::Es, k).is_some())
                .unwrap();
            by_key.entry(used.clone()).or_default().push(&l.english);
        }
        for (key, english) in &by_key {
            if key.starts_with("help-value--") {
                continue;
            }
            assert!(
                english.iter().all(|e| *e == english[0]),
                "{key} stands for different English: {english:#?}"
            );
        }
        let file = include_str!("../../assets/help/es-CL/help.ftl");
        let fixed = [
            "help-heading-commands",
            "help-heading-options",
            "help-heading-arguments",
            "help-value-command",
            "help-value-options",
            "help-possible-values",
            "help-default",
        ];
        let unused: Vec<&str> = file
            .lines()
            .filter_map(|l| l.split_once(" ="))
            .map(|(k, _)| k.trim())
            .filter(|k| k.starts_with("help-") && !k.starts_with("help-error-"))
            .filter(|k| !k.starts_with("help-exit-"))
            .filter(|k| !by_key.contains_key(*k) && !fixed.contains(k))
            .collect();
        assert!(unused.is_empty(), "unused: {unused:?}");
    }

    #[test]
    fn the_spanish_definition_is_valid() {
        command_in(Lang::Es).debug_assert();
    }
}
