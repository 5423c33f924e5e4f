// The versioned schema of a tuning-cache file; PRAGMA user_version holds the version.
//
//   1  selections (device x problem x provenance -> winner) and cubins.
//   2  selections gain the search's statistics (tflops, search_seconds, candidates_measured, candidates_total,
//      search_complete; rows of version 1 read as incomplete searches); measurements (every candidate's outcome,
//      indexed by device and problem) and untuned (problems served untuned) are added.
//   3  ceilings (measured device ceilings per device fingerprint and driver version) is added.
//   4  no table changes shape; the rows written from version 4 on hold problem keys with a version token ("v2_...")
//      and, in kernel_sources_hash, the source hash of the kernel families a problem's search covers (of cubins:
//      their family's), where older rows hold unversioned keys and the hash of every kernel source. Older rows are
//      kept, as entries of another provenance.
//   5  cubins gain image_hash, the content hash of the image (empty in rows of older files); files are marked
//      with PRAGMA application_id = kApplicationId.
//
// A ReadWrite file is created at version 2 by the text that always made fresh version-2 files and then taken
// through the same steps as an older file, so a fresh file and a migrated one cannot differ. Migrations run one
// version at a time inside one IMMEDIATE transaction, so a failed migration changes nothing and concurrent openers
// migrate once. ReadOnly files are never written: an older bundle is read through TEMP objects that shadow its
// tables with the current shape (version 2's values for the missing columns, empty tables for the missing ones). A
// file of a version above ours is refused in both modes, since a newer jitgemm may have changed what our columns
// mean.
#pragma once

#include <cstdint>
#include <string>

struct sqlite3;

namespace jitgemm::cache {

// The statements that created a version-1 file, kept as the definition of that version: the tests build version-1
// files from it. Files in the field were made by this text, so it never changes.
extern const char* const kSchemaVersion1Sql;

// The statements that created a fresh version-2 file (byte for byte what jitgemm 0.1 ran), kept as the definition
// of that version in the same way; fresh files of later versions start from it too.
const std::string& schema_version_2_sql();

// PRAGMA application_id of jitgemm's cache files ("JGMC"), set when a file is created or migrated; files of
// schema versions 1 to 4 carry 0 until then.
inline constexpr std::uint32_t kApplicationId = 0x4A474D43;

// PRAGMA user_version of a file about to be opened, read in one snapshot with what tells a tuning cache from other
// SQLite files. Throws Error(CacheError) for a file written by a newer jitgemm and for a file that is not jitgemm's:
// another application_id, or schema version 0 with tables in it. jitgemm never adds its tables to another
// application's database.
int read_jitgemm_schema_version(sqlite3* db, const std::string& path);

// PRAGMA user_version. Throws Error(CacheError) for a file written by a newer jitgemm.
int read_schema_version(sqlite3* db, const std::string& path);

// ReadWrite: creates the current schema in a fresh file or migrates an older one. `version` is what
// read_schema_version returned; it is read again inside the transaction, as another process may have moved it on.
void bring_to_current_schema(sqlite3* db, const std::string& path, int version);

// ReadOnly: lets queries written for the current schema read a file of `version`, without writing to it. Throws
// Error(CacheError) for a file that holds no tuning cache (version 0).
void present_as_current_schema(sqlite3* db, const std::string& path, int version);

}  // namespace jitgemm::cache
