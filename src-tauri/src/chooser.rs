//! The ISOs screen's Open dialog: GTK's own file chooser, kept inside the screen.
//!
//! GTK 3 sizes its file chooser from the font (1096×822 here), larger than a 1024×700 screen,
//! and neither Tauri's dialog plugin nor rfd lets a caller size it. So the window opens the
//! chooser itself and gives it the screen's work area as its largest size: GTK holds its own
//! size requests to such hints, with or without a window manager.

use gtk::prelude::*;
use tokio::sync::oneshot;

/// What the dialog's title says.
const TITLE: &str = "Choose ISO files to bring into svc";

/// Open the chooser over `parent` (on GTK's thread); `done` gets the chosen paths, none when
/// the operator cancels.
pub fn open(parent: &gtk::ApplicationWindow, done: oneshot::Sender<Vec<String>>) {
    let dialog = gtk::FileChooserDialog::with_buttons(
        Some(TITLE),
        Some(parent),
        gtk::FileChooserAction::Open,
        &[
            ("_Cancel", gtk::ResponseType::Cancel),
            ("_Open", gtk::ResponseType::Accept),
        ],
    );
    dialog.set_select_multiple(true);
    dialog.set_modal(true);
    let isos = gtk::FileFilter::new();
    isos.set_name(Some("ISO images"));
    isos.add_pattern("*.iso");
    isos.add_pattern("*.ISO");
    dialog.add_filter(isos);
    if let Some((width, height)) = work_area(parent) {
        fit(&dialog, width, height);
    }
    let done = std::cell::Cell::new(Some(done));
    dialog.connect_response(move |d, response| {
        let chosen = if response == gtk::ResponseType::Accept {
            d.filenames()
                .into_iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect()
        } else {
            Vec::new()
        };
        if let Some(tx) = done.take() {
            let _ = tx.send(chosen);
        }
        d.close();
    });
    dialog.show();
}

/// The size of the work area of the monitor `parent` is on (the primary one before it shows).
fn work_area(parent: &gtk::ApplicationWindow) -> Option<(i32, i32)> {
    let display = gtk::prelude::WidgetExt::display(parent);
    let monitor = parent
        .window()
        .and_then(|w| display.monitor_at_window(&w))
        .or_else(|| display.primary_monitor())
        .or_else(|| display.monitor(0))?;
    let area = monitor.workarea();
    Some((area.width(), area.height()))
}

/// Hold `dialog` to at most `width` × `height`, its size as GTK would choose it otherwise.
fn fit(dialog: &gtk::FileChooserDialog, width: i32, height: i32) {
    let (width, height) = largest(width, height);
    let hints = gdk::Geometry::new(
        -1,
        -1,
        width,
        height,
        -1,
        -1,
        -1,
        -1,
        0.0,
        0.0,
        gdk::Gravity::NorthWest,
    );
    dialog.set_geometry_hints(
        None::<&gtk::Widget>,
        Some(&hints),
        gdk::WindowHints::MAX_SIZE,
    );
}

/// The largest size for a dialog on a work area of `width` × `height`: all of it, less a
/// margin for the window manager's frame.
fn largest(width: i32, height: i32) -> (i32, i32) {
    const FRAME: i32 = 40;
    ((width - FRAME).max(320), (height - FRAME).max(240))
}

#[cfg(test)]
mod tests {
    use super::largest;

    #[test]
    fn the_dialog_leaves_room_for_its_frame_on_a_small_screen() {
        assert_eq!(largest(1024, 700), (984, 660));
        assert_eq!(largest(100, 100), (320, 240));
    }
}
