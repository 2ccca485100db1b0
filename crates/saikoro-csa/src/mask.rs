//! The password kept out of the log: every line the client logs, sent or received, passes
//! through a [`Mask`] first.

use std::borrow::Cow;

/// What the log shows in place of a secret.
pub(crate) const HIDDEN: &str = "********";

/// The secrets of a login: the whole password and, for Floodgate's `GAME,TRIP` form, the trip
/// alone (the part that is the player's identity), so that neither reaches the log even when a
/// server repeats one of them.
#[derive(Clone, Default)]
pub(crate) struct Mask {
    /// Longest first, so that the password is hidden whole before its trip is looked for.
    secrets: Vec<String>,
}

impl Mask {
    /// The mask of `password` (an empty password hides nothing).
    pub(crate) fn new(password: &str) -> Mask {
        let mut secrets = Vec::new();
        if !password.is_empty() {
            secrets.push(password.to_string());
        }
        if let Some((_, trip)) = password.split_once(',') {
            if !trip.is_empty() {
                secrets.push(trip.to_string());
            }
        }
        Mask { secrets }
    }

    /// `line` with each secret replaced by [`HIDDEN`].
    pub(crate) fn apply<'a>(&self, line: &'a str) -> Cow<'a, str> {
        let mut shown = Cow::Borrowed(line);
        for s in &self.secrets {
            if shown.contains(s.as_str()) {
                shown = Cow::Owned(shown.replace(s.as_str(), HIDDEN));
            }
        }
        shown
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_login_line_shows_no_password() {
        let m = Mask::new("floodgate-300-10F,mytrip");
        assert_eq!(
            m.apply("LOGIN me floodgate-300-10F,mytrip"),
            "LOGIN me ********"
        );
    }

    /// A server that repeats the trip alone (none does today) still has it hidden.
    #[test]
    fn the_trip_alone_is_hidden_too() {
        let m = Mask::new("floodgate-300-10F,mytrip");
        assert_eq!(m.apply("##[LOGIN] mytrip x1"), "##[LOGIN] ******** x1");
        assert_eq!(m.apply("+7776FU,T0"), "+7776FU,T0");
    }

    #[test]
    fn a_password_without_a_comma_is_hidden_whole() {
        let m = Mask::new("pw");
        assert_eq!(m.apply("LOGIN me pw"), "LOGIN me ********");
        assert_eq!(
            Mask::new("game,").apply("LOGIN me game,"),
            "LOGIN me ********"
        );
        assert_eq!(Mask::new("").apply("LOGIN me "), "LOGIN me ");
    }
}
