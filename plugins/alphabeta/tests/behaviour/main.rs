//! The search's behaviour through its public API, one module a theme, in one test
//! binary so that the build links it once.

mod common;
mod multipv;
mod search;
mod tablebases;
mod threads;
mod variants;
mod xiangqi;
