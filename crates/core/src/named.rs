//! Enums whose values travel as text, each value under exactly one name: the same name in
//! JSON and in a database column, parsed once where a request or a row comes in.
//!
//! [`named_enum!`](crate::named_enum) declares such an enum together with its names and gives
//! it `as_str`, `Display`, `FromStr` (an unknown name is an [`UnknownName`]) and serde's
//! `Serialize` and `Deserialize` through those same names, so that a name is written in one
//! place only. With the crate's `openapi` feature it also describes itself to utoipa as a
//! string with exactly those values.
//!
//! ```
//! backlay_core::named_enum! {
//!     /// A traffic light.
//!     pub enum Light as "light" {
//!         /// Stop.
//!         Red = "red",
//!         /// Go.
//!         Green = "green",
//!     }
//! }
//!
//! assert_eq!(Light::Red.as_str(), "red");
//! assert_eq!("green".parse::<Light>(), Ok(Light::Green));
//! let unknown = "blue".parse::<Light>().unwrap_err();
//! assert_eq!(unknown.to_string(), r#""blue" is not a light: use red or green"#);
//! assert_eq!(serde_json::to_string(&Light::Green).unwrap(), r#""green""#);
//! ```

/// A name that is none of an enum's values.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a {what}: use {}", one_of(names))]
pub struct UnknownName {
    /// What the enum names ("market status").
    pub what: &'static str,
    /// The names it knows.
    pub names: &'static [&'static str],
    /// The text given.
    pub text: String,
}

/// `a`, `a or b`, `a, b or c`: the names to use, for a message.
pub fn one_of(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [only] => (*only).to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// Declares an enum whose values each have one name (see the [module docs](crate::named)).
///
/// `enum Name as "what it is" { Variant = "name", … }`; attributes (docs, extra derives,
/// `#[default]`) pass through. The enum always derives `Copy, Clone, Debug, PartialEq, Eq,
/// Hash`, and gets `ALL` (every value, in order), `NAMES` (their names, in the same order),
/// `as_str`, `Display`, `FromStr`, `Serialize` and `Deserialize`.
#[macro_export]
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident as $what:literal {
            $( $(#[$variant_meta:meta])* $variant:ident = $text:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        $vis enum $name {
            $( $(#[$variant_meta])* $variant ),+
        }

        impl $name {
            /// Every value, in the order declared.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// Every value's name, in the order of [`Self::ALL`].
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            /// Its one name, in JSON and in the database.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }
        }

        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::core::str::FromStr for $name {
            type Err = $crate::named::UnknownName;

            fn from_str(text: &str) -> ::core::result::Result<Self, Self::Err> {
                $name::ALL.iter().copied().find(|value| value.as_str() == text).ok_or_else(|| {
                    $crate::named::UnknownName {
                        what: $what,
                        names: $name::NAMES,
                        text: text.to_string(),
                    }
                })
            }
        }

        impl $crate::__private::serde::Serialize for $name {
            fn serialize<S: $crate::__private::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<D: $crate::__private::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                let text = <::std::string::String as $crate::__private::serde::Deserialize>::deserialize(
                    deserializer,
                )?;
                // The words serde's own derive uses, so a request hears the same either way.
                text.parse().map_err(|_| {
                    <D::Error as $crate::__private::serde::de::Error>::unknown_variant(&text, $name::NAMES)
                })
            }
        }

        $crate::__named_enum_schema!($name);
    };
}

/// The OpenAPI schema of a named enum: a string with exactly its names.
#[cfg(feature = "openapi")]
#[doc(hidden)]
pub fn string_schema(
    names: &'static [&'static str],
) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(names.iter().copied()))
        .into()
}

#[cfg(feature = "openapi")]
#[doc(hidden)]
#[macro_export]
macro_rules! __named_enum_schema {
    ($name:ident) => {
        impl $crate::__private::utoipa::PartialSchema for $name {
            fn schema() -> $crate::__private::utoipa::openapi::RefOr<
                $crate::__private::utoipa::openapi::schema::Schema,
            > {
                $crate::named::string_schema($name::NAMES)
            }
        }

        impl $crate::__private::utoipa::ToSchema for $name {}
    };
}

#[cfg(not(feature = "openapi"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __named_enum_schema {
    ($name:ident) => {};
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::named_enum! {
        /// A test enum.
        #[derive(PartialOrd, Ord, Default)]
        pub enum Phase as "phase" {
            /// The first.
            #[default]
            First = "first",
            /// The second.
            SecondOne = "second_one",
        }
    }

    #[test]
    fn each_value_has_one_name_both_ways() {
        for value in Phase::ALL {
            assert_eq!(value.as_str().parse::<Phase>(), Ok(*value));
            assert_eq!(value.to_string(), value.as_str());
            let json = serde_json::to_string(value).unwrap();
            assert_eq!(json, format!("\"{}\"", value.as_str()));
            assert_eq!(serde_json::from_str::<Phase>(&json).unwrap(), *value);
        }
        assert_eq!(Phase::NAMES, ["first", "second_one"]);
        assert_eq!(Phase::default(), Phase::First);
        assert!(Phase::First < Phase::SecondOne);
    }

    #[test]
    fn an_unknown_name_is_refused_and_named() {
        let err = "First".parse::<Phase>().unwrap_err();
        assert_eq!(err, UnknownName { what: "phase", names: Phase::NAMES, text: "First".into() });
        assert_eq!(err.to_string(), r#""First" is not a phase: use first or second_one"#);
        assert!("".parse::<Phase>().is_err());
        assert!(" first".parse::<Phase>().is_err());
        let json = serde_json::from_str::<Phase>("\"third\"").unwrap_err().to_string();
        assert!(
            json.starts_with("unknown variant `third`, expected `first` or `second_one`"),
            "{json}"
        );
    }

    #[test]
    fn one_of_lists_names_as_a_person_would() {
        assert_eq!(one_of(&[]), "");
        assert_eq!(one_of(&["a"]), "a");
        assert_eq!(one_of(&["a", "b"]), "a or b");
        assert_eq!(one_of(&["a", "b", "c"]), "a, b or c");
    }
}
