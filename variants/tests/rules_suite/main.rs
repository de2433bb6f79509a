//! The rules engine against reference counts, games and definition files, one
//! module a theme, in one test binary so that the build links it once.

mod chu;
mod counting;
mod definitions;
mod elven;
mod legality;
mod lion;
mod perft;
mod resize;
mod rules;
