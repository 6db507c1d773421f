module github.com/pathflow/pathflow

go 1.26.8

require (
	github.com/apache/arrow-go/v18 v18.8.0
	github.com/klauspost/compress v1.19.2
	github.com/paulmach/osm v0.8.0
	github.com/spf13/cast v1.10.0
	github.com/spf13/pflag v1.0.10
	github.com/spf13/viper v1.21.0
	github.com/tidwall/rtree v1.10.0
	go.yaml.in/yaml/v3 v3.0.5
	golang.org/x/sys v0.47.0
	gonum.org/v1/gonum v0.17.0
	gorgonia.org/cu v0.9.6
)

require (
	github.com/andybalholm/brotli v1.2.3 // indirect
	github.com/apache/thrift v0.24.0 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/datadog/czlib v0.0.0-20160811164712-4bc9a24e37f2 // indirect
	github.com/fsnotify/fsnotify v1.9.0 // indirect
	github.com/go-viper/mapstructure/v2 v2.4.0 // indirect
	github.com/goccy/go-json v0.10.6 // indirect
	github.com/google/flatbuffers v25.12.19+incompatible // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/klauspost/cpuid/v2 v2.4.0 // indirect
	github.com/paulmach/orb v0.1.3 // indirect
	github.com/paulmach/protoscan v0.2.1 // indirect
	github.com/pelletier/go-toml/v2 v2.2.4 // indirect
	github.com/pierrec/lz4/v4 v4.1.29 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/sagikazarmark/locafero v0.11.0 // indirect
	github.com/sourcegraph/conc v0.3.1-0.20240121214520-5f936abd7ae8 // indirect
	github.com/spf13/afero v1.15.0 // indirect
	github.com/subosito/gotenv v1.6.0 // indirect
	github.com/tidwall/geoindex v1.7.0 // indirect
	github.com/zeebo/xxh3 v1.1.0 // indirect
	golang.org/x/exp v0.0.0-20260112195511-716be5621a96 // indirect
	golang.org/x/net v0.58.0 // indirect
	golang.org/x/sync v0.22.0 // indirect
	golang.org/x/text v0.41.0 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20261012220534-4341edf3f941 // indirect
	google.golang.org/grpc v1.83.2 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)

// A copy of gorgonia.org/cu v0.9.6 that loads the CUDA driver at run time
// instead of linking it, so that one binary runs on GPU and CPU-only hosts;
// third_party/cu/NOTICE lists what changed.
replace gorgonia.org/cu => ./third_party/cu

// A pure-Go stand-in for the cgo zlib binding the OpenStreetMap PBF
// decoder picks when cgo is on (it is, for CUDA); third_party/czlib/NOTICE
// says why.
replace github.com/datadog/czlib => ./third_party/czlib
