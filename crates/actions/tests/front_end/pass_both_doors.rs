//! A small table read by a door that keeps what a door gets: every entry in the one shape,
//! the default call and an entry's own call both compiling against the functions they name.

mod hosts {
    pub async fn get(_app: &super::App, name: &str, force: Option<bool>) -> Result<String, String> {
        Ok(format!("{name} {force:?}"))
    }
}

mod jobs {
    pub async fn start(_app: &super::App, hosts: Vec<String>, _q: super::Q) -> Result<u32, String> {
        Ok(hosts.len() as u32)
    }
}

pub struct App;
pub struct Q;

/// What a door sees of each entry, as text.
macro_rules! door {
    ( window [$( { command $cmd:ident, rest [$($wm:ident $wpath:literal)?], app_only [$($why:literal)?] } )*]
      $( {
        name [$m:ident $f:ident],
        docs [$($doc:tt)*],
        app $app:ident,
        ret [$ret:ty],
        call $call:block,
        inputs [$(($kind:ident $arg:ident : $ty:ty))*],
        rest {
            path [$(($($p:ident : $pty:ty),+))?],
            body [$($b:ident : $bty:ty)?],
            maybe_body [$($mb:ident : $mbty:ty)?],
            query [$($q:ident : $qty:ty)?],
            route [$method:ident $path:literal],
            api [$($api:tt)*],
            aliases [$([$am:ident $apath:literal $aid:literal])*],
            job [$($job:ident)?],
            answer $answer:tt,
        },
    } )* ) => {
        $(
            #[allow(dead_code)]
            async fn $f($app: &App, $($($p: $pty,)+)? $($b: $bty,)? $($mb: Option<$mbty>,)? $($q: $qty,)?) -> Result<$ret, String> {
                $call
            }
        )*
        const WINDOW: &[&str] = &[$(concat!(stringify!($cmd), $(" ", stringify!($wm), " ", $wpath,)? $(" ", $why)?)),*];
        const ENTRIES: &[&str] = &[$(concat!(
            stringify!($m), "_", stringify!($f), " ", stringify!($method), " ", $path,
            $(" alias ", stringify!($am), " ", $apath, " ", $aid,)*
            $($(" path ", stringify!($p),)+)? $(" body ", stringify!($b),)? $(" maybe_body ", stringify!($mb),)?
            $(" query ", stringify!($q),)? $(" ", stringify!($job),)? " ", stringify!($answer),
            " inputs" $(, " ", stringify!($kind), " ", stringify!($arg))*
        )),*];
    };
}

bootsmith_actions::actions! { door
    window {
        about: rest(get, "/");
        auth_token: app_only("the token stays in the window");
    }

    /// One host.
    #[rest(get, path = "/hosts/{name}", tag = "hosts")]
    #[alias(get, "/h/{name}", "get_host_alias")]
    hosts::get(app, path(name: String), maybe_body force: bool) -> String
        => under host |h| Reply(h);

    /// Make images: a job.
    #[rest(post, path = "/images")]
    jobs::start(app, body hosts: Vec<String>, query q: Q) -> u32
        // A call of the entry's own.
        = { Ok(jobs::start(app, hosts, q).await? + 1) }
        => as job;
}

fn main() {
    assert_eq!(WINDOW, ["about get /", "auth_token the token stays in the window"]);
    assert_eq!(
        ENTRIES,
        [
            "hosts_get get /hosts/{name} alias get /h/{name} get_host_alias path name maybe_body force [wrap [host] | h | Reply(h)] inputs path name maybe_body force",
            "jobs_start post /images body hosts query q job [] inputs body hosts query q",
        ]
    );
}
