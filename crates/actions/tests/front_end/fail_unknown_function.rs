//! An entry naming a function the core lacks fails at the entry's own name.

mod hosts {}

pub struct App;

macro_rules! door {
    ( window $window:tt $( { name [$m:ident $f:ident], docs $d:tt, app $app:ident, ret [$ret:ty], call $call:block,
        inputs $inputs:tt, rest $rest:tt, } )* ) => {
        $( async fn $f($app: &App) -> Result<$ret, ()> { $call } )*
    };
}

bootsmith_actions::actions! { door
    window {}

    #[rest(get, path = "/hosts")]
    hosts::list(app) -> Vec<String>;
}

fn main() {}
