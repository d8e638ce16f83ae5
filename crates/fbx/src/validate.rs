//! The rules of an FBX file that its records can break and still read: connections that
//! name objects the file does not have, objects that share an id, and the records every
//! reader looks for.

use std::collections::HashSet;

use animbin_core::{Location, Problem, Severity};

use crate::node::Document;

/// Every problem of `document`'s records.
pub fn validate(document: &Document) -> Vec<Problem> {
    let mut problems = Vec::new();
    let at = |path: &str| Location::Item(path.to_string());
    for required in ["FBXHeaderExtension", "GlobalSettings", "Objects", "Connections"] {
        if document.node(required).is_none() {
            problems.push(Problem::new(
                Severity::Warning,
                at(required),
                format!("no {required} record (readers look for it)"),
            ));
        }
    }
    let mut ids = HashSet::new();
    ids.insert(0i64);
    if let Some(objects) = document.node("Objects") {
        for (k, object) in objects.children.iter().enumerate() {
            match object.properties.first().and_then(|p| p.as_i64()) {
                Some(id) if !ids.insert(id) => problems.push(Problem::new(
                    Severity::Error,
                    at(&format!("Objects/{k} ({})", object.name)),
                    format!("id {id} is another object's too"),
                )),
                Some(_) => {}
                None => problems.push(Problem::new(
                    Severity::Error,
                    at(&format!("Objects/{k} ({})", object.name)),
                    "an object without an integer id",
                )),
            }
        }
    }
    if let Some(connections) = document.node("Connections") {
        for (k, connection) in connections.children.iter().enumerate() {
            let kind = connection.properties.first().and_then(|p| p.as_str()).unwrap_or("");
            let ends = [1, 2].map(|i| connection.properties.get(i).and_then(|p| p.as_i64()));
            let location = at(&format!("Connections/{k}"));
            match ends {
                [Some(child), Some(parent)] => {
                    for id in [child, parent] {
                        if !ids.contains(&id) {
                            problems.push(Problem::new(
                                Severity::Error,
                                location.clone(),
                                format!("a {kind} connection names object {id}, which the file does not have"),
                            ));
                        }
                    }
                }
                _ => problems.push(Problem::new(
                    Severity::Error,
                    location,
                    "a connection without two object ids",
                )),
            }
        }
    }
    problems
}
