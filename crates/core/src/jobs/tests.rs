//! The jobs' rules, on apps in temporary directories: one job per lane and scope, how a job
//! ends whatever its work does, and what the store keeps across a restart.

use super::*;
use serde_json::json;
use std::time::Duration;

use crate::error::Error;

use crate::testing::TempApp;

/// A running job that ends when the returned sender fires.
async fn gated(app: &App, scope: Option<&str>) -> (JobId, tokio::sync::oneshot::Sender<()>) {
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let id = start(
        app,
        JobKind::Images,
        scope.map(str::to_owned),
        move |ctx| async move {
            ctx.step(None, JobStep::Download, StepState::Started, None);
            let _ = rx.await;
            ctx.step(None, JobStep::Download, StepState::Done, None);
            Ok(json!({"ok": true}))
        },
    )
    .await
    .unwrap();
    (id, tx)
}

fn seqs(events: &[JobEventRecord]) -> Vec<u64> {
    events.iter().map(|r| r.seq).collect()
}

#[tokio::test]
async fn events_are_recorded_in_order_with_seq() {
    let app = TempApp::new().await;
    let id = start(&app, JobKind::Images, None, |ctx| async move {
        ctx.step(Some("h1"), JobStep::AnswerImage, StepState::Started, None);
        ctx.step(
            Some("h1"),
            JobStep::AnswerImage,
            StepState::Done,
            Some("written"),
        );
        ctx.step(
            Some("h2"),
            JobStep::AnswerImage,
            StepState::Skipped,
            Some("up to date"),
        );
        Ok(json!({"hosts": 2}))
    })
    .await
    .unwrap();
    let job = wait(&app, id).await.unwrap();
    assert_eq!(job.state, JobState::Succeeded);
    assert_eq!(job.result, Some(json!({"hosts": 2})));
    assert!(job.error.is_none() && job.finished_at.is_some());
    assert_eq!(seqs(&job.events), vec![1, 2, 3, 4]);
    assert_eq!(
        job.events[1].event,
        JobEvent::Step {
            host: Some("h1".into()),
            step: JobStep::AnswerImage,
            state: StepState::Done,
            message: Some("written".into())
        }
    );
    assert_eq!(
        serde_json::to_value(&job.events[3]).unwrap(),
        json!({"seq": 4, "type": "finished", "state": "succeeded", "result": {"hosts": 2}})
    );
    let listed = list(&app).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].id, id);
    assert_eq!(listed[0].state, JobState::Succeeded);
}

#[tokio::test]
async fn history_keeps_only_the_latest_bytes_per_step_and_host() {
    let app = TempApp::new().await;
    let id = start(&app, JobKind::Images, None, |ctx| async move {
        ctx.step(Some("a"), JobStep::Extract, StepState::Started, None);
        for i in 0..=1000u64 {
            ctx.bytes(JobStep::Extract, Some("a"), i, 1000);
            ctx.bytes(JobStep::Extract, Some("b"), i / 2, 1000);
        }
        ctx.step(Some("a"), JobStep::Extract, StepState::Done, None);
        Ok(json!(null))
    })
    .await
    .unwrap();
    let job = wait(&app, id).await.unwrap();
    let bytes: Vec<_> = job
        .events
        .iter()
        .filter_map(|r| match &r.event {
            JobEvent::Bytes {
                host, done, total, ..
            } => Some((host.clone().unwrap(), *done, *total)),
            _ => None,
        })
        .collect();
    // One each, the latest sent: `a` ended with its final count, which always goes out.
    assert_eq!(bytes.len(), 2, "{bytes:?}");
    assert_eq!(bytes[1], ("a".to_owned(), 1000, 1000));
    assert!(bytes[0].0 == "b" && bytes[0].1 <= 500, "{bytes:?}");
    let s = seqs(&job.events);
    assert!(
        s.windows(2).all(|w| w[0] < w[1]),
        "history in seq order: {s:?}"
    );
    assert_eq!(job.events.len(), 5);
    assert!(job.events.last().unwrap().is_finished());
}

#[tokio::test]
async fn same_kind_and_scope_conflicts_while_running_only() {
    let app = TempApp::new().await;
    let (first, go) = gated(&app, Some("pod1")).await;
    let e = start(&app, JobKind::Images, Some("pod1".into()), |_| async {
        Ok(json!(1))
    })
    .await
    .unwrap_err();
    assert_eq!(e.code(), "job_running");
    assert_eq!(e.kind().http_status(), 409);
    assert!(e.to_string().contains(&first.to_string()), "{e}");
    // Another scope and another kind may run alongside.
    let other = start(&app, JobKind::Images, Some("pod2".into()), |_| async {
        Ok(json!(2))
    })
    .await
    .unwrap();
    let kind = start(&app, JobKind::Deploy, Some("pod1".into()), |_| async {
        Ok(json!(3))
    })
    .await
    .unwrap();
    assert_eq!(wait(&app, other).await.unwrap().state, JobState::Succeeded);
    assert_eq!(wait(&app, kind).await.unwrap().state, JobState::Succeeded);
    go.send(()).unwrap();
    wait(&app, first).await.unwrap();
    let again = start(&app, JobKind::Images, Some("pod1".into()), |_| async {
        Ok(json!(4))
    })
    .await
    .unwrap();
    assert_eq!(wait(&app, again).await.unwrap().result, Some(json!(4)));
}

#[tokio::test]
async fn a_deploy_a_vmedia_run_and_an_undeploy_of_one_group_never_run_at_once() {
    let app = TempApp::new().await;
    let (go, wait_go) = tokio::sync::oneshot::channel::<()>();
    let deploy = start(&app, JobKind::Deploy, Some("pod1".into()), |_| async move {
        let _ = wait_go.await;
        Ok(json!(1))
    })
    .await
    .unwrap();
    for kind in [JobKind::Vmedia, JobKind::Undeploy] {
        let e = start(&app, kind, Some("pod1".into()), |_| async { Ok(json!(2)) })
            .await
            .unwrap_err();
        assert_eq!(e.code(), "job_running");
        // The sentence names what runs, not what was asked for.
        assert!(e.to_string().starts_with("a deploy job for pod1"), "{e}");
    }
    // Another group's undeploy may run alongside.
    let other = start(&app, JobKind::Undeploy, Some("pod2".into()), |_| async {
        Ok(json!(3))
    })
    .await
    .unwrap();
    assert_eq!(wait(&app, other).await.unwrap().state, JobState::Succeeded);
    go.send(()).unwrap();
    wait(&app, deploy).await.unwrap();
}

#[tokio::test]
async fn work_with_failed_hosts_ends_finished_with_failures_with_its_result() {
    let app = TempApp::new().await;
    let id = start(
        &app,
        JobKind::Deploy,
        Some("pod1".into()),
        |ctx| async move {
            ctx.step(
                Some("h1"),
                JobStep::Install,
                StepState::Failed,
                Some("no disk"),
            );
            Ok(JobOutput {
                result: json!({"failed_hosts": ["h1"]}),
                with_failures: true,
            })
        },
    )
    .await
    .unwrap();
    let job = wait(&app, id).await.unwrap();
    assert_eq!(job.state, JobState::FinishedWithFailures);
    assert_eq!(job.result, Some(json!({"failed_hosts": ["h1"]})));
    assert!(job.error.is_none());
    assert_eq!(
        serde_json::to_value(job.events.last().unwrap()).unwrap()["state"],
        "finished_with_failures"
    );
    // As the store has it, after the job left memory.
    app.jobs().flush().await;
    let stored = bootsmith_store::jobs::get(app.store(), &id.to_string())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.state, JobState::FinishedWithFailures);
}

#[tokio::test]
async fn failed_work_ends_failed_with_code_and_status() {
    let app = TempApp::new().await;
    let id = start(
        &app,
        JobKind::Deploy,
        Some("pod1".into()),
        |ctx| async move {
            ctx.step(
                Some("h1"),
                JobStep::ServiceProfile,
                StepState::Failed,
                Some("no"),
            );
            Err::<serde_json::Value, _>(Error::not_found(
                crate::error::ErrorCode::UnknownServerGroup,
                "there is no server group pod1",
            ))
        },
    )
    .await
    .unwrap();
    let job = wait(&app, id).await.unwrap();
    assert_eq!(job.state, JobState::Failed);
    assert!(job.result.is_none());
    let err = job.error.clone().unwrap();
    assert_eq!(
        (err.code.as_str(), err.status),
        ("unknown_server_group", Some(404))
    );
    assert_eq!(err.error, "there is no server group pod1");
    assert_eq!(
        job.events.last().unwrap().event,
        JobEvent::Finished {
            state: JobState::Failed,
            result: None,
            error: Some(err)
        }
    );
}

#[tokio::test]
async fn panicking_work_ends_failed() {
    let app = TempApp::new().await;
    let id = start(&app, JobKind::Images, None, |ctx| async move {
        ctx.step(None, JobStep::Objects, StepState::Started, None);
        panic!("the work broke");
        #[allow(unreachable_code)]
        Ok(json!(null))
    })
    .await
    .unwrap();
    let job = tokio::time::timeout(Duration::from_secs(5), wait(&app, id))
        .await
        .expect("a panicking job still ends")
        .unwrap();
    assert_eq!(job.state, JobState::Failed);
    let err = job.error.unwrap();
    assert_eq!(
        (err.code.as_str(), err.status),
        ("internal_error", Some(500))
    );
    assert_eq!(seqs(&job.events), vec![1, 2]);
    // The kind and scope are free again.
    start(&app, JobKind::Images, None, |_| async { Ok(json!(null)) })
        .await
        .unwrap();
}

#[tokio::test]
async fn subscribe_after_finish_gives_the_whole_history() {
    let app = TempApp::new().await;
    let id = start(&app, JobKind::Images, None, |ctx| async move {
        ctx.step(None, JobStep::Objects, StepState::Done, None);
        Ok(json!("r"))
    })
    .await
    .unwrap();
    wait(&app, id).await.unwrap();
    let (history, mut rx) = subscribe(&app, id).await.unwrap();
    assert_eq!(seqs(&history), vec![1, 2]);
    assert!(history[1].is_finished());
    assert!(rx.try_recv().is_err());
    let mut w = watch(&app, id, None).await.unwrap();
    assert_eq!(w.next().await.unwrap().seq, 1);
    assert!(w.next().await.unwrap().is_finished());
    assert!(w.next().await.is_none());
    // Resuming past the end ends at once.
    assert!(watch(&app, id, Some(2))
        .await
        .unwrap()
        .next()
        .await
        .is_none());
}

#[tokio::test]
async fn subscribe_mid_run_has_no_gap_or_duplicate() {
    let app = TempApp::new().await;
    let (go_tx, go_rx) = tokio::sync::oneshot::channel::<()>();
    let (half_tx, half_rx) = tokio::sync::oneshot::channel::<()>();
    let id = start(&app, JobKind::Images, None, move |ctx| async move {
        // Report from a blocking thread, racing the subscriber.
        tokio::task::spawn_blocking(move || {
            let mut half_tx = Some(half_tx);
            for i in 0..200 {
                ctx.step(
                    Some(&format!("h{i}")),
                    JobStep::Objects,
                    StepState::Done,
                    None,
                );
                if i == 50 {
                    half_tx.take().unwrap().send(()).unwrap();
                }
            }
        })
        .await
        .unwrap();
        let _ = go_rx.await;
        Ok(json!(null))
    })
    .await
    .unwrap();
    half_rx.await.unwrap();
    let (history, mut rx) = subscribe(&app, id).await.unwrap();
    go_tx.send(()).unwrap();
    let mut all = seqs(&history);
    loop {
        let r = rx.recv().await.unwrap();
        all.push(r.seq);
        if r.is_finished() {
            break;
        }
    }
    assert_eq!(all, (1..=201).collect::<Vec<u64>>());
    // The resuming reader starts right after the seq it names.
    let mut w = watch(&app, id, Some(150)).await.unwrap();
    assert_eq!(w.next().await.unwrap().seq, 151);
}

#[tokio::test]
async fn memory_keeps_the_last_finished_jobs_and_the_store_keeps_more() {
    let app = TempApp::new().await;
    let (running, go) = gated(&app, None).await;
    let mut first = None;
    for i in 0..KEEP_FINISHED + 5 {
        let id = start(&app, JobKind::Images, Some(i.to_string()), |_| async {
            Ok(json!(null))
        })
        .await
        .unwrap();
        first.get_or_insert(id);
        wait(&app, id).await.unwrap();
    }
    // Pruning runs right after the job ends; give the last one's task a moment.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let listed = list(&app).await.unwrap();
    assert_eq!(listed.len(), KEEP_FINISHED + 1);
    assert!(listed.iter().any(|j| j.id == running));
    assert!(!listed.iter().any(|j| Some(j.id) == first));
    // Memory keeps the last ones; the store still has the first, with its history.
    assert_eq!(lock(&app.jobs().list).len(), KEEP_FINISHED + 1);
    let old = get(&app, first.unwrap()).await.unwrap();
    assert_eq!(old.state, JobState::Succeeded);
    assert!(old.events.iter().any(|e| e.is_finished()), "{old:?}");
    let e = get(&app, JobId::generate()).await.unwrap_err();
    assert_eq!(
        (e.code().as_str(), e.kind().http_status()),
        ("unknown_job", 404)
    );
    assert_eq!(
        "not-a-uuid".parse::<JobId>().unwrap_err().code(),
        "unknown_job"
    );
    go.send(()).unwrap();
}

/// Polls the store until job `id` is stored with at least `events` events.
async fn stored(app: &App, id: JobId, events: usize) -> Job {
    for _ in 0..200 {
        if let Some(job) = store::jobs::get(app.store(), &id.to_string())
            .await
            .unwrap()
        {
            if job.events.len() >= events {
                return job;
            }
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("job {id} was not stored with {events} events");
}

#[tokio::test]
async fn jobs_outlive_a_restart_and_one_cut_off_is_interrupted_with_what_it_did() {
    let app = TempApp::new().await;
    let done = start(&app, JobKind::Images, None, |ctx| async move {
        ctx.step(Some("node01"), JobStep::AnswerImage, StepState::Done, None);
        Ok(json!({"built": 1}))
    })
    .await
    .unwrap();
    wait(&app, done).await.unwrap();
    stored(&app, done, 2).await;
    // A deploy that reported one step and never ended: the process died under it.
    let (cut, _gate) = gated(&app, Some("pod1")).await;
    stored(&app, cut, 1).await;
    // Another process on the same data while this one runs (the window beside `serve`,
    // `bootsmith token`) leaves the running job alone.
    let other_svc = tempfile::tempdir().unwrap();
    let beside = crate::startup::open(crate::Config {
        svc_dir: other_svc.path().to_owned(),
        ..crate::testing::config(app.path())
    })
    .await
    .unwrap();
    assert_eq!(get(&beside, cut).await.unwrap().state, JobState::Running);
    beside.close().await;
    let dir = app.close().await;

    // The process died, its work and locks with it: a new one starts on its data (a copy,
    // as this test's process lives on).
    let fresh = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(fresh.path().join("data")).unwrap();
    for f in std::fs::read_dir(dir.path().join("data")).unwrap() {
        let f = f.unwrap();
        if f.file_type().unwrap().is_file() {
            std::fs::copy(f.path(), fresh.path().join("data").join(f.file_name())).unwrap();
        }
    }
    let again = TempApp::open_in(fresh).await;
    let listed = list(&again).await.unwrap();
    let states: Vec<(JobId, JobState)> = listed.iter().map(|j| (j.id, j.state)).collect();
    assert_eq!(
        states,
        [(cut, JobState::Interrupted), (done, JobState::Succeeded)]
    );
    let job = get(&again, done).await.unwrap();
    assert_eq!(job.result, Some(json!({"built": 1})));
    let job = get(&again, cut).await.unwrap();
    assert_eq!(
        job.error.as_ref().map(|e| e.code.as_str()),
        Some("interrupted")
    );
    assert!(job.finished_at.is_some());
    // What it had done, then the end: a watcher gets the whole story and stops.
    let mut w = watch(&again, cut, None).await.unwrap();
    let mut seen = Vec::new();
    while let Some(r) = w.next().await {
        seen.push((r.seq, r.kind()));
    }
    assert_eq!(seen, [(1, "step"), (2, "finished")]);
    assert_eq!(
        wait(&again, cut).await.unwrap().state,
        JobState::Interrupted
    );
}
