//! `cargo xtask hex-patterns` as a user runs it: a run written elsewhere keeps its files there
//! (the crate's data files are never touched unless no `--out` is given), and two runs' sample
//! files learn together.

use std::path::Path;
use std::process::Command;

fn xtask(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_xtask")).args(args).output().expect("xtask runs");
    assert!(
        output.status.success(),
        "xtask {args:?} failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// The crate's data files, to check that they stay as they were.
fn shipped() -> Vec<(String, String)> {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/hex/data");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&data)
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            (path.display().to_string(), std::fs::read_to_string(&path).unwrap_or_default())
        })
        .collect();
    files.sort();
    files
}

#[test]
fn local_weights_written_elsewhere_leave_the_shipped_files_alone() {
    let dir = std::env::temp_dir().join(format!("hex-patterns-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let before = shipped();
    let out = dir.join("local.txt");
    let common = ["hex-patterns", "--sizes", "4", "--games", "10", "--iterations", "60", "--threads", "1"];
    let mut args = common.to_vec();
    args.extend(["--local", "--out", out.to_str().unwrap()]);
    xtask(&args);
    let playout =
        std::fs::read_to_string(dir.join("local-playout.txt")).expect("the playout weights beside --out");
    assert!(
        playout.lines().any(|line| line.starts_with("# cargo xtask hex-patterns --sizes 4 ")),
        "{playout}"
    );
    assert!(out.exists());
    assert_eq!(before, shipped(), "a run with --out wrote into crates/hex/data");

    // Two runs (other seeds, other board sizes) saved apart, then learned from together.
    let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
    let mut args = common.to_vec();
    args.extend(["--seed", "3", "--samples-out", a.to_str().unwrap()]);
    xtask(&args);
    let args = ["hex-patterns", "--sizes", "5", "--games", "10", "--iterations", "60", "--threads", "1"];
    let mut args = args.to_vec();
    args.extend(["--seed", "4", "--samples-out", b.to_str().unwrap()]);
    xtask(&args);
    let both = dir.join("both.txt");
    let flat = dir.join("flat.txt");
    std::fs::write(&flat, "hex-patterns 1\n").unwrap();
    let report = xtask(&[
        "hex-patterns",
        "--samples-in",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--out",
        both.to_str().unwrap(),
        "--compare",
        flat.to_str().unwrap(),
    ]);
    assert!(report.contains("--sizes 4 ") && report.contains("--sizes 5 "), "{report}");
    // Each run's rows: learned, shipped, uniform and the compared flat file, which scores as
    // the uniform guess does.
    let rows = |name: &str| report.lines().filter(|l| l.trim_start().starts_with(name)).count();
    assert_eq!((rows("learned:"), rows("shipped:"), rows("uniform:")), (2, 2, 2), "{report}");
    for run in report.split(" held-out samples of ").skip(1) {
        let value = |name: &str| {
            let line = run.lines().find(|l| l.trim_start().starts_with(name)).unwrap();
            line.rsplit(' ').next().unwrap().to_string()
        };
        assert_eq!(value("uniform:"), value(&format!("{}:", flat.display())), "{report}");
    }
    let text = std::fs::read_to_string(&both).unwrap();
    let commands: Vec<&str> = text.lines().filter(|l| l.starts_with("# cargo xtask hex-patterns")).collect();
    assert_eq!(commands.len(), 2, "{text}");
    assert!(commands[0].contains("--seed 3 ") && commands[1].contains("--seed 4 "), "{text}");
    assert_eq!(before, shipped());
    std::fs::remove_dir_all(&dir).unwrap();
}
