// Package geoparquet writes routes as GeoParquet 1.1: one row per route,
// with the caller's leading columns (such as the pair's ids, its travel
// time and length), the route as a WKB LineString in the column
// "geometry" and its bounding box in the struct column "bbox", and the
// "geo" metadata that GIS readers (GDAL/QGIS, geopandas, DuckDB spatial,
// hyparquet) use to find and place the geometry.
//
// A file is written like the tables of package tables, through a
// callback that appends the rows:
//
//	leading := []arrow.Field{{Name: "source", Type: arrow.PrimitiveTypes.Int32}}
//	info, err := geoparquet.WriteFile(path, leading, meta, tables.ParquetEncoding{}, cfg,
//		func(rows *geoparquet.Rows) error {
//			for _, r := range routes {
//				rows.Leading(0).(*array.Int32Builder).Append(r.Source)
//				if err := rows.AppendLine(r.Lon, r.Lat); err != nil {
//					return err
//				}
//			}
//			return nil
//		})
//
// # The file
//
// Coordinates are longitude, latitude in degrees on WGS84 (OGC:CRS84),
// which GeoParquet assumes when the column metadata names no crs, and
// pathflow's other geographic tables say with the schema key
// tables.MetaCRS, which these files carry too. WKB is 2D and
// little-endian. The metadata is GeoParquet 1.1's: version, primary
// column, and for the geometry column the encoding (WKB), the geometry
// types (LineString only), the bounding box of every route in the file
// and the covering that names the bbox column. A row without a route has
// a null geometry and a null bbox; a route of one point is that point
// twice (see Rows.AppendLine).
//
// GeoParquet is a Parquet format. Asked for Arrow IPC (tables.Arrow), the
// writer follows what Arrow readers of geometry use instead: the GeoArrow
// extension geoarrow.wkb on the geometry field, with the CRS in its
// metadata, and the same "geo" metadata in the schema, less the file's
// bounding box, which is not known when an IPC file writes its schema.
package geoparquet
