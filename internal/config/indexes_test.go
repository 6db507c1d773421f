package config

import (
	"io"
	"slices"
	"strings"
	"testing"
)

// deviceKeys declare an index-list key as pipeline does: the default "all"
// and a flag.
var deviceKeys = []Key{{Name: "compute.devices", Default: "all", Flag: "devices", Usage: "devices"}}

// readIndexList loads deviceKeys from an optional YAML file, args and env
// and reads compute.devices.
func readIndexList(t *testing.T, file string, args, env []string) ([]int, error) {
	t.Helper()
	if file != "" {
		args = append([]string{"-config=" + writeConfig(t, file)}, args...)
	}
	l, err := Read("compute", deviceKeys, Source{Args: args, Env: env, Usage: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	vs := l.Values()
	list := vs.IndexList("compute.devices", "all")
	return list, vs.Err()
}

func TestIndexListFromEverySource(t *testing.T) {
	for _, tc := range []struct {
		name string
		file string
		args []string
		env  []string
		want []int // nil: all
	}{
		{name: "default all"},
		{name: "YAML all", file: "compute:\n  devices: all\n"},
		{name: "YAML null is the default", file: "compute:\n  devices: null\n"},
		{name: "YAML list", file: "compute:\n  devices: [0, 1]\n", want: []int{0, 1}},
		{name: "YAML block list", file: "compute:\n  devices:\n    - 3\n    - 1\n", want: []int{3, 1}},
		{name: "YAML one device listed twice", file: "compute:\n  devices: [0, 0]\n", want: []int{0, 0}},
		{name: "YAML integer", file: "compute:\n  devices: 2\n", want: []int{2}},
		{name: "YAML quoted items", file: "compute:\n  devices: [\"1\", \"0\"]\n", want: []int{1, 0}},
		{name: "YAML string", file: "compute:\n  devices: \"0,1\"\n", want: []int{0, 1}},
		{name: "environment over file", file: "compute:\n  devices: [0, 1]\n", env: []string{"PATHFLOW_COMPUTE_DEVICES=2, 3"}, want: []int{2, 3}},
		{name: "environment all over file", file: "compute:\n  devices: [0, 1]\n", env: []string{"PATHFLOW_COMPUTE_DEVICES=all"}},
		{name: "environment twice", env: []string{"PATHFLOW_COMPUTE_DEVICES=0,0"}, want: []int{0, 0}},
		{name: "flag over environment", args: []string{"-devices", "1,0"}, env: []string{"PATHFLOW_COMPUTE_DEVICES=2"}, want: []int{1, 0}},
		{name: "flag all over file", file: "compute:\n  devices: [0]\n", args: []string{"-devices=all"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readIndexList(t, tc.file, tc.args, tc.env)
			if err != nil || !slices.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
				t.Errorf("IndexList = %#v, %v; want %#v", got, err, tc.want)
			}
		})
	}
}

func TestIndexListErrorsNameTheKeyAndValue(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		args, env  []string
		say        []string
	}{
		{name: "negative in YAML", file: "compute:\n  devices: [0, -1]\n", say: []string{"got [0 -1]", "-1 is not an integer >= 0"}},
		{name: "negative YAML integer", file: "compute:\n  devices: -1\n", say: []string{"got -1"}},
		{name: "negative in the environment", env: []string{"PATHFLOW_COMPUTE_DEVICES=-1"}, say: []string{`got "-1"`}},
		{name: "negative flag", args: []string{"-devices", "0,-2"}, say: []string{`got "0,-2" ("-2" is not`}},
		{name: "fraction", file: "compute:\n  devices: [1.5]\n", say: []string{"got [1.5]", "1.5 is not"}},
		{name: "word", env: []string{"PATHFLOW_COMPUTE_DEVICES=gpu0"}, say: []string{`"gpu0" is not`}},
		{name: "hexadecimal", args: []string{"-devices", "0x1"}, say: []string{`"0x1" is not`}},
		{name: "all in a list", file: "compute:\n  devices: [all]\n", say: []string{`"all" is not`}},
		{name: "all beside an ordinal", env: []string{"PATHFLOW_COMPUTE_DEVICES=all,0"}, say: []string{`"all" is not`}},
		{name: "empty item", env: []string{"PATHFLOW_COMPUTE_DEVICES=0,,1"}, say: []string{`got "0,,1" ("" is not`}},
		{name: "trailing comma", args: []string{"-devices", "0,"}, say: []string{`got "0,"`}},
		{name: "empty YAML list", file: "compute:\n  devices: []\n", say: []string{"is an empty list"}},
		{name: "empty variable", env: []string{"PATHFLOW_COMPUTE_DEVICES="}, say: []string{"is empty"}},
		{name: "empty flag", args: []string{"-devices", " "}, say: []string{"is empty"}},
		{name: "boolean", file: "compute:\n  devices: true\n", say: []string{"got true"}},
		{name: "map", file: "compute:\n  devices:\n    first: 0\n", say: []string{"unknown key"}},
		{name: "nested list", file: "compute:\n  devices: [[0]]\n", say: []string{"[0] is not"}},
		{name: "too large", file: "compute:\n  devices: [18446744073709551615]\n", say: []string{"18446744073709551615 is not"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := tc.args
			if tc.file != "" {
				args = append([]string{"-config=" + writeConfig(t, tc.file)}, args...)
			}
			l, err := Read("compute", deviceKeys, Source{Args: args, Env: tc.env, Usage: io.Discard})
			var got []int
			if err == nil {
				vs := l.Values()
				got, err = vs.IndexList("compute.devices", "all"), vs.Err()
			}
			cerr, ok := err.(*Error)
			if !ok || !strings.HasPrefix(cerr.Key, "compute.devices") {
				t.Fatalf("IndexList = %v, err %v; want a config error naming compute.devices", got, err)
			}
			for _, say := range tc.say {
				if !strings.Contains(err.Error(), say) {
					t.Errorf("err %q does not say %q", err, say)
				}
			}
		})
	}
}
