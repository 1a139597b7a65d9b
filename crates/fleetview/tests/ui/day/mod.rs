//! A day without a restart (issue 36), as a person meets it.

mod refused_key;
