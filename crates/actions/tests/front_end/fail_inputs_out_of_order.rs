//! The inputs come in one order (path, body, maybe_body, query): the table says so at once.

// The table never reaches the door.
#[allow(unused_macros)]
macro_rules! door {
    ($($all:tt)*) => {};
}

bootsmith_actions::actions! { door
    window {}

    #[rest(post, path = "/hosts/{name}")]
    hosts::set(app, body host: String, path(name: String)) -> String;
}

fn main() {}
