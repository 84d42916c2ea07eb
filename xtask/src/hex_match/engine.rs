//! One GTP engine as a child process: started from a command line, asked one command at a time
//! with a deadline, and killed when it breaks the protocol.
//!
//! The child's standard output is read on its own thread, which cuts it into responses (the
//! lines up to an empty line) and sends them over a channel; the referee waits on the channel
//! with `recv_timeout`, so an engine that never answers costs one timeout, not a hung match.

pub use hex::gtp::{Answer, parse_response};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The longest line or response the reader keeps; an engine that writes more without a line
/// break or an empty line has its output cut there, which then reads as garbage.
const MAX_RESPONSE_BYTES: u64 = 64 * 1024;

/// How long an engine that has closed its output, or was asked to quit, gets to exit before
/// it is killed.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// Why an engine lost a game without the game being decided on the board.
#[derive(Clone, Debug, PartialEq, Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum EngineFailure {
    /// Its output ended (it exited or closed standard output) before it answered.
    #[error("ended while answering {command:?} ({})", exit_text(*exit_code))]
    Crashed {
        /// The command it was asked.
        command: String,
        /// Its exit code, if it exited with one (not when killed by a signal).
        exit_code: Option<i32>,
    },
    /// It did not answer within the per-command time limit, and was killed.
    #[error("did not answer {command:?} within {seconds} s")]
    Timeout {
        /// The command it was asked.
        command: String,
        /// The limit, in seconds.
        seconds: f64,
    },
    /// Its answer did not start with `=` or `?`.
    #[error("answered {command:?} with {answer:?}, which is not a GTP response")]
    Garbage {
        /// The command it was asked.
        command: String,
        /// The answer, as received.
        answer: String,
    },
    /// It answered a command with `?`.
    #[error("refused {command:?}: {message}")]
    Refused {
        /// The command it was asked.
        command: String,
        /// The text after `?`.
        message: String,
    },
    /// Its answer to `genmove` was neither a move nor `resign`.
    #[error("answered {command:?} with {answer:?}, which is not a move")]
    NotAMove {
        /// The command it was asked.
        command: String,
        /// The answer, after `= `.
        answer: String,
    },
    /// Its answer to `genmove` was a move the rules do not allow now.
    #[error("answered {command:?} with {mv}, which is illegal: {why}")]
    IllegalMove {
        /// The command it was asked.
        command: String,
        /// The move, as the engine named it.
        mv: String,
        /// Why the referee refused it.
        why: String,
    },
}

impl EngineFailure {
    /// A one-word name for the kind of failure, as the JSON records spell it.
    pub fn kind(&self) -> &'static str {
        match self {
            EngineFailure::Crashed { .. } => "crashed",
            EngineFailure::Timeout { .. } => "timeout",
            EngineFailure::Garbage { .. } => "garbage",
            EngineFailure::Refused { .. } => "refused",
            EngineFailure::NotAMove { .. } => "not-a-move",
            EngineFailure::IllegalMove { .. } => "illegal-move",
        }
    }
}

fn exit_text(code: Option<i32>) -> String {
    match code {
        Some(code) => format!("exit code {code}"),
        None => "no exit code".to_string(),
    }
}

/// A command line that cannot be split into a program and its arguments.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SplitError {
    /// Nothing but spaces.
    #[error("the command is empty")]
    Empty,
    /// A quote that is never closed.
    #[error("a {0} quote is not closed")]
    Unclosed(char),
    /// A backslash at the very end.
    #[error("the command ends in a backslash")]
    TrailingBackslash,
}

/// Splits a command line into words the way a POSIX shell does for the simple cases: spaces
/// separate words; `'…'` keeps everything literally; `"…"` keeps everything but `\"` and `\\`;
/// outside quotes a backslash keeps the next character. No variables, globs or pipes: to use
/// those, run `sh -c '…'`.
pub fn split_command(line: &str) -> Result<Vec<String>, SplitError> {
    let mut words = Vec::new();
    // `None` between words; an empty string is still a word once a quote has opened it.
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '\'' => {
                let current = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => current.push(c),
                        None => return Err(SplitError::Unclosed('\'')),
                    }
                }
            }
            '"' => {
                let current = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => current.push(c),
                            Some(c) => {
                                current.push('\\');
                                current.push(c);
                            }
                            None => return Err(SplitError::Unclosed('"')),
                        },
                        Some(c) => current.push(c),
                        None => return Err(SplitError::Unclosed('"')),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => return Err(SplitError::TrailingBackslash),
            },
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    if words.is_empty() { Err(SplitError::Empty) } else { Ok(words) }
}

/// Cuts an engine's output into responses and sends each over `responses`; `None` at the end
/// of the output. Empty lines between responses are skipped.
fn read_responses(stdout: ChildStdout, responses: Sender<Option<String>>) {
    let mut reader = BufReader::new(stdout);
    let mut block = String::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        match (&mut reader).take(MAX_RESPONSE_BYTES).read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => {
                let _ = responses.send(None);
                return;
            }
            Ok(_) => {}
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\n', '\r']);
        let oversized = block.len() + text.len() > MAX_RESPONSE_BYTES as usize;
        if text.trim().is_empty() || oversized {
            if !text.trim().is_empty() {
                block.push_str(text);
            }
            if !block.is_empty() && responses.send(Some(std::mem::take(&mut block))).is_err() {
                // The referee has dropped the engine.
                return;
            }
        } else {
            if !block.is_empty() {
                block.push('\n');
            }
            block.push_str(text);
        }
    }
}

/// A running GTP engine.
#[derive(Debug)]
pub struct GtpProcess {
    child: Child,
    stdin: ChildStdin,
    responses: Receiver<Option<String>>,
    /// Set once the output has ended.
    ended: bool,
}

impl GtpProcess {
    /// Starts `argv[0]` with the other words as arguments, its standard error shown on ours
    /// or discarded.
    pub fn spawn(argv: &[String], show_stderr: bool) -> std::io::Result<GtpProcess> {
        let (program, args) = argv.split_first().ok_or_else(|| std::io::Error::other("empty command"))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if show_stderr { Stdio::inherit() } else { Stdio::null() })
            .spawn()?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(stdin), Some(stdout)) => (stdin, stdout),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(std::io::Error::other("the engine's standard input or output is missing"));
            }
        };
        let (sender, responses) = mpsc::channel();
        thread::Builder::new()
            .name("gtp-reader".to_string())
            .spawn(move || read_responses(stdout, sender))?;
        Ok(GtpProcess { child, stdin, responses, ended: false })
    }

    /// Sends `command` and waits up to `timeout` for the answer. On a timeout the engine is
    /// killed; on any failure it should not be asked again.
    pub fn ask(&mut self, command: &str, timeout: Duration) -> Result<Answer, EngineFailure> {
        // Anything the engine wrote unasked (a second answer, a banner) would otherwise be
        // taken for the answer to this command.
        while let Ok(stale) = self.responses.try_recv() {
            self.ended |= stale.is_none();
        }
        if self.ended {
            return Err(self.crashed(command));
        }
        let sent = writeln!(self.stdin, "{command}").and_then(|()| self.stdin.flush());
        if sent.is_err() {
            return Err(self.crashed(command));
        }
        match self.responses.recv_timeout(timeout) {
            Ok(Some(block)) => parse_response(&block)
                .ok_or_else(|| EngineFailure::Garbage { command: command.to_string(), answer: block }),
            Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                self.ended = true;
                Err(self.crashed(command))
            }
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(EngineFailure::Timeout { command: command.to_string(), seconds: timeout.as_secs_f64() })
            }
        }
    }

    /// The failure of an engine whose output has ended, with its exit code once it has exited.
    fn crashed(&mut self, command: &str) -> EngineFailure {
        let exit_code = self.wait_for_exit(EXIT_GRACE).and_then(|status| status.code());
        EngineFailure::Crashed { command: command.to_string(), exit_code }
    }

    /// Waits up to `grace` for the engine to exit, killing it after that.
    fn wait_for_exit(&mut self, grace: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + grace;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => {
                    self.kill();
                    return None;
                }
            }
        }
    }

    /// Kills the engine (if it still runs) and reaps it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Sends `quit` and gives the engine a moment to exit before killing it.
    pub fn quit(mut self) {
        if writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush()).is_ok() {
            self.wait_for_exit(EXIT_GRACE);
        }
        // Dropping kills whatever is still running.
    }
}

impl Drop for GtpProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        split_command(line).unwrap()
    }

    #[test]
    fn commands_split_like_a_shell_in_the_simple_cases() {
        assert_eq!(words("hex-gtp --seed 3"), ["hex-gtp", "--seed", "3"]);
        assert_eq!(words("  sh -c 'read x; exit 3' "), ["sh", "-c", "read x; exit 3"]);
        assert_eq!(words(r#"a "b \"c\" \\ \d" e\ f ''"#), ["a", r#"b "c" \ \d"#, "e f", ""]);
        assert_eq!(words("x'y'\"z\""), ["xyz"]);
        assert_eq!(split_command("   "), Err(SplitError::Empty));
        assert_eq!(split_command("sh -c 'x"), Err(SplitError::Unclosed('\'')));
        assert_eq!(split_command("sh \"x"), Err(SplitError::Unclosed('"')));
        assert_eq!(split_command("sh x\\"), Err(SplitError::TrailingBackslash));
    }
}
