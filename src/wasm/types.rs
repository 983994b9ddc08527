//! TypeScript declarations of the package's data types (see `types` below).
