//! The front end of the table of actions (`bootsmith_actions::actions!`), compiled as a table
//! of its own would be: what a door receives, and the errors a mistyped table gets.
//! `TRYBUILD=overwrite` rewrites the expected errors (`front_end/*.stderr`).

#[test]
fn the_front_end_hands_doors_one_shape_and_refuses_what_does_not_read() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/front_end/pass_*.rs");
    cases.compile_fail("tests/front_end/fail_*.rs");
}
