//! Progress bars for work that walks a session step by step.

use indicatif::{ProgressBar, ProgressStyle};

/// A bar over `steps` steps labelled `what`, drawn on stderr. indicatif draws nothing
/// when stderr is not a terminal, so pipes, files and tests see only stdout.
pub fn steps_bar(steps: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(steps);
    let style = ProgressStyle::with_template("{msg:>10} [{bar:40}] {pos}/{len} steps")
        .expect("the template is a constant")
        .progress_chars("=> ");
    bar.set_style(style);
    bar.set_message(what.to_string());
    bar
}
