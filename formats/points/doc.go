// Package points reads a file of places: one row per place, with the
// user's own id and its longitude and latitude, such as zone centroids,
// stores or geocoded addresses, which a run snaps onto the road network
// and answers about under the user's ids; or a file of trips between
// places, one row per trip with the coordinates of both ends.
//
// A file is Parquet, Arrow IPC or CSV (plain or gzip-compressed), told
// from its bytes, never from its name. Its columns are found by name,
// case-insensitively: id, lon (or longitude) and lat (or latitude); a
// file of places ignores any other columns. Rows are kept in file order, duplicates
// included, since each row is a request the answer must repeat.
//
// A file of trips, read by ReadPairs, has one row per trip, with the
// user's id and both ends: id, origin_lon (or from_lon), origin_lat (or
// from_lat), destination_lon (or to_lon) and destination_lat (or to_lat).
// Its other columns (a mode, a purpose, a weight) are kept, in file order,
// so that an answer can carry them beside each trip: with the type the
// file gives them in Parquet and Arrow IPC, nulls included, and as text in
// CSV, an empty field being a null. Everything below holds for it as for
// a file of places.
//
// The id keeps the type the file gives it, so that an answer can be
// joined back to the user's own tables: in Parquet and Arrow IPC any
// integer type, string or large_string; in CSV int64 when every id is a
// decimal integer, else string. Coordinates are degrees (WGS 84): in
// Parquet and Arrow IPC a floating-point or integer column, in CSV a
// decimal number. A null coordinate (an empty CSV field) reads as NaN: the
// place is kept and later answered with a reason instead of a distance.
// An id that is null or empty, a coordinate that does not parse, and a
// longitude outside -180..180 or a latitude outside -90..90 are errors of
// the file, naming it and the row.
package points
