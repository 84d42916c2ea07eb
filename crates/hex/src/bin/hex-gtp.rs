//! `hex-gtp`: a Hex engine that speaks GTP in the dialect of HexGui and Benzene on standard input
//! and output, for GUIs and tournament tools.
//!
//! Each command line gets its response, flushed at once; lines without a command get none. The
//! program ends after `quit` or at the end of its input. See `hex::gtp` for the commands.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use hex::gtp::Engine;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("hex-gtp: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> io::Result<()> {
    let mut engine = Engine::default();
    let mut input = io::stdin().lock();
    let mut output = io::stdout().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        // Bytes that are not UTF-8 become U+FFFD: the command is then unknown or malformed and
        // is answered as such.
        let text = String::from_utf8_lossy(&line);
        match engine.handle(&text) {
            Some(response) => {
                output.write_all(response.as_bytes())?;
                output.flush()?;
            }
            None => return Ok(()),
        }
        if engine.has_quit() {
            return Ok(());
        }
    }
}
