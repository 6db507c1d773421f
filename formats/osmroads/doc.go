// Package osmroads turns an OpenStreetMap extract into a routable road
// network: the ways a routing profile allows (profile.go, the tables in
// profiles/), their nodes' coordinates, and a graph whose vertices are the
// routing nodes (intersections, dead ends, barriers) and whose arcs are the
// chains of road between them, each carrying its travel time, its length,
// its way and the coordinates it passes through.
//
// An extract is read in two passes (read.go): the ways first, keeping the
// routable ones and the ids of their nodes; then the nodes, keeping only
// the coordinates of those ids. Memory is bounded by the routable part of
// the region, never by the largest OpenStreetMap id. PBF blocks are
// decoded on every worker; XML (plain, gzip or bzip2) is read on one.
// docs/openstreetmap.md describes the model, the profiles and how the
// design scales to a country.
//
// OpenStreetMap data is (c) OpenStreetMap contributors, available under the
// Open Database License (ODbL).
package osmroads
