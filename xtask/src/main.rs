//! The workspace's task runner, reached as `cargo xtask <task>`.
//!
//! Tasks are subcommands of this one binary. The evaluation harness (`cargo xtask eval`) is built
//! by its own issue; until then the runner only lists what exists.

use std::process::ExitCode;

/// The tasks this runner knows, with one line each for `cargo xtask help`.
const TASKS: &[(&str, &str)] = &[("help", "list the available tasks")];

fn main() -> ExitCode {
    let task = std::env::args().nth(1);
    match task.as_deref() {
        None | Some("help") | Some("--help") | Some("-h") => {
            println!("usage: cargo xtask <task>\n\ntasks:");
            for (name, what) in TASKS {
                println!("  {name:<8} {what}");
            }
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("error: unknown task `{other}` (run `cargo xtask help` for the list)");
            ExitCode::from(2)
        }
    }
}
