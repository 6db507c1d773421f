package datasets

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pathflow/pathflow/formats"
)

// File is one downloadable file of a dataset.
type File struct {
	// Name is the file name in a mirror folder or the cache.
	Name string
	// URL is the public download location.
	URL string
	// SHA256 is the expected checksum of the downloaded bytes, "" where not
	// published.
	SHA256 string
	// Module, when set, is a Go module ("path@version") whose source
	// holds the file at ModuleFile: `go mod download` puts it in the
	// module cache, where Locate looks after the mirror folder.
	Module, ModuleFile string
}

// Dataset describes a public graph: where to get it and what it must
// contain once parsed.
type Dataset struct {
	// Name is the short name used with `ingest -dataset`.
	Name string
	// Description says what the graph is.
	Description string
	// Format is how Graph is read: a graph format of the formats
	// registry, the one its file name's extension says.
	Format formats.Kind
	// Directed is false for inputs whose arcs stand for undirected edges.
	Directed bool
	// Graph is the arc file; Coordinates the DIMACS .co file, if any.
	Graph       File
	Coordinates *File
	// Nodes and Arcs are the published counts the parsed file must match;
	// 0 where they depend on how the file is read (an OpenStreetMap
	// extract's network depends on the routing profile).
	Nodes, Arcs int64
}

const dimacsBase = "http://www.diag.uniroma1.it/challenge9/data/USA-road-d/"

func usaRoad(name, region string, nodes, arcs int64) Dataset {
	stem := "USA-road-d." + name
	return Dataset{
		Name:        name,
		Description: "DIMACS 9th challenge road network, distance weights: " + region,
		Format:      formats.KindDIMACS,
		Directed:    true,
		Graph:       File{Name: stem + ".gr.gz", URL: dimacsBase + stem + ".gr.gz"},
		Coordinates: &File{Name: stem + ".co.gz", URL: dimacsBase + stem + ".co.gz"},
		Nodes:       nodes,
		Arcs:        arcs,
	}
}

func gnutella(date string, nodes, edges int64) Dataset {
	name := "p2p-Gnutella" + date
	return Dataset{
		Name:        name,
		Description: "SNAP Gnutella peer-to-peer network, August 2002 snapshot " + date + " (unweighted)",
		Format:      formats.KindSNAP,
		Directed:    true,
		Graph:       File{Name: name + ".txt", URL: "https://snap.stanford.edu/data/" + name + ".txt.gz"},
		Nodes:       nodes,
		Arcs:        edges,
	}
}

// osmTestdata is an OpenStreetMap extract that the Go module
// github.com/paulmach/osm ships in its testdata, a dependency of pathflow:
// after `go mod download` it is on every machine that built pathflow.
// (c) OpenStreetMap contributors, ODbL.
func osmTestdata(name, description, file, sha string) Dataset {
	const module = "github.com/paulmach/osm@v0.8.0"
	return Dataset{
		Name:        name,
		Description: description + " (c) OpenStreetMap contributors, ODbL",
		Format:      formats.KindOSM,
		Directed:    true,
		Graph: File{Name: file, URL: "https://raw.githubusercontent.com/paulmach/osm/v0.8.0/testdata/" + file, SHA256: sha,
			Module: module, ModuleFile: "testdata/" + file},
	}
}

var manifest = []Dataset{
	usaRoad("NY", "New York City", 264_346, 733_846),
	usaRoad("BAY", "San Francisco Bay Area", 321_270, 800_172),
	usaRoad("COL", "Colorado", 435_666, 1_057_066),
	usaRoad("FLA", "Florida", 1_070_376, 2_712_798),
	usaRoad("NW", "Northwest USA", 1_207_945, 2_840_208),
	usaRoad("NE", "Northeast USA", 1_524_453, 3_897_636),
	usaRoad("CAL", "California and Nevada", 1_890_815, 4_657_742),
	usaRoad("LKS", "Great Lakes", 2_758_119, 6_885_658),
	usaRoad("E", "Eastern USA", 3_598_623, 8_778_114),
	usaRoad("W", "Western USA", 6_262_104, 15_248_146),
	usaRoad("CTR", "Central USA", 14_081_816, 34_292_496),
	usaRoad("USA", "Full USA", 23_947_347, 58_333_344),
	{
		Name:        "rome99",
		Description: "DIMACS 9th challenge road network of Rome, arc costs in meters",
		Format:      formats.KindDIMACS,
		Directed:    true,
		Graph:       File{Name: "rome99.gr", URL: "http://www.diag.uniroma1.it/challenge9/data/rome/rome99.gr"},
		Nodes:       3_353,
		Arcs:        8_870,
	},
	gnutella("04", 10_876, 39_994),
	gnutella("05", 8_846, 31_839),
	gnutella("06", 8_717, 31_525),
	gnutella("08", 6_301, 20_777),
	gnutella("09", 8_114, 26_013),
	gnutella("24", 26_518, 65_369),
	gnutella("25", 22_687, 54_705),
	gnutella("30", 36_682, 88_328),
	gnutella("31", 62_586, 147_892),
	osmTestdata("delaware-osm", "OpenStreetMap extract of the US state of Delaware, 2016, PBF.", "delaware-latest.osm.pbf",
		"71ce7bd152d68cb9bdb11d9de4548db86d103f664bb8620a210ddee433534647"),
	osmTestdata("andorra-osm", "OpenStreetMap extract of Andorra, XML compressed with bzip2.", "andorra-latest.osm.bz2", ""),
}

// Lookup returns the dataset called name (case-insensitive; "NY" and
// "USA-road-d.NY" both work).
func Lookup(name string) (Dataset, error) {
	want := strings.TrimPrefix(strings.ToLower(name), "usa-road-d.")
	for _, d := range manifest {
		if strings.ToLower(d.Name) == want {
			return d, nil
		}
	}
	return Dataset{}, fmt.Errorf("datasets: unknown dataset %q (known: %s)", name, strings.Join(Names(), ", "))
}

// All returns every dataset in the manifest.
func All() []Dataset { return append([]Dataset(nil), manifest...) }

// Names returns the dataset names, sorted.
func Names() []string {
	names := make([]string, len(manifest))
	for i, d := range manifest {
		names[i] = d.Name
	}
	sort.Strings(names)
	return names
}
