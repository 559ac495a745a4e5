// Hide the console window on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    if let Err(e) = bootsmith::main() {
        eprintln!("bootsmith: {e:#}");
        std::process::exit(1);
    }
}
