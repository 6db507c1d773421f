package config

import (
	"io"
	"strings"
	"testing"
)

func TestParseByteSize(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int64
	}{
		{"0", 0},
		{"4096", 4096},
		{" 17 ", 17},
		{"12B", 12},
		{"12 b", 12},
		{"3KB", 3_000},
		{"3kb", 3_000},
		{"5MB", 5_000_000},
		{"10GB", 10_000_000_000},
		{"2TB", 2_000_000_000_000},
		{"3KiB", 3 << 10},
		{"512 MiB", 512 << 20},
		{"512mib", 512 << 20},
		{"10GiB", 10 << 30},
		{"10 gib", 10 << 30},
		{"2TiB", 2 << 40},
		{"0GiB", 0},
		{"9223372036854775807", 1<<63 - 1},
		{"8388607TiB", 8388607 << 40},
	} {
		got, err := ParseByteSize(tc.text)
		if err != nil || got != tc.want {
			t.Errorf("ParseByteSize(%q) = %d, %v; want %d", tc.text, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ text, say string }{
		{"", "not a byte size"},
		{"  ", "not a byte size"},
		{"-1", "negative"},
		{"-10GiB", "negative"},
		{"GiB", "not a byte size"},
		{"10XB", "not a byte size"},
		{"10 G", "not a byte size"},
		{"10GiBs", "not a byte size"},
		{"1.5GiB", "not a byte size"},
		{"4e9", "not a byte size"},
		{"0x10", "not a byte size"},
		{"1,000", "not a byte size"},
		{"+5", "not a byte size"},
		{"10 Gi B", "not a byte size"},
		{"9223372036854775808", "more bytes than"},
		{"8388608TiB", "more bytes than"},
	} {
		if n, err := ParseByteSize(tc.text); err == nil || !strings.Contains(err.Error(), tc.say) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("ParseByteSize(%q) = %d, %v; want an error quoting it and saying %q", tc.text, n, err, tc.say)
		}
	}
}

// sizeKeys declare a byte-size key as pipeline does: a string default, so
// that flags and variables may carry a unit.
var sizeKeys = []Key{{Name: "gpu.memory_limit", Default: "0", Flag: "gpu-memory-limit", Usage: "limit"}}

func TestByteSizeFromEverySource(t *testing.T) {
	for _, tc := range []struct {
		name string
		file string // YAML; "" for no file
		args []string
		env  []string
		want int64
	}{
		{name: "default", want: 0},
		{name: "YAML integer", file: "gpu:\n  memory_limit: 1073741824\n", want: 1 << 30},
		{name: "YAML size", file: "gpu:\n  memory_limit: 10GiB\n", want: 10 << 30},
		{name: "YAML size with a space", file: "gpu:\n  memory_limit: 512 MiB\n", want: 512 << 20},
		{name: "environment over file", file: "gpu:\n  memory_limit: 10GiB\n", env: []string{"PATHFLOW_GPU_MEMORY_LIMIT=3GB"}, want: 3e9},
		{name: "flag over environment", args: []string{"-gpu-memory-limit", "2 kib"}, env: []string{"PATHFLOW_GPU_MEMORY_LIMIT=3GB"}, want: 2048},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := tc.args
			if tc.file != "" {
				args = append([]string{"-config=" + writeConfig(t, tc.file)}, args...)
			}
			l, err := Read("compute", sizeKeys, Source{Args: args, Env: tc.env})
			if err != nil {
				t.Fatal(err)
			}
			vs := l.Values()
			if got := vs.ByteSize("gpu.memory_limit"); got != tc.want || vs.Err() != nil {
				t.Errorf("ByteSize = %d, %v; want %d", got, vs.Err(), tc.want)
			}
		})
	}
}

func TestByteSizeErrorsNameTheKeyAndValue(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		env        []string
		say        string
	}{
		{name: "negative integer", file: "gpu:\n  memory_limit: -1\n", say: "-1 is negative"},
		{name: "negative size", env: []string{"PATHFLOW_GPU_MEMORY_LIMIT=-2GiB"}, say: `"-2GiB" is negative`},
		{name: "unknown unit", env: []string{"PATHFLOW_GPU_MEMORY_LIMIT=10XB"}, say: `"10XB" is not a byte size`},
		{name: "no number", file: "gpu:\n  memory_limit: lots\n", say: `"lots" is not a byte size`},
		{name: "fraction", file: "gpu:\n  memory_limit: 1.5\n", say: "got 1.5"},
		{name: "list", file: "gpu:\n  memory_limit: [1, 2]\n", say: "got [1 2]"},
		{name: "boolean", file: "gpu:\n  memory_limit: true\n", say: "got true"},
		{name: "too large", file: "gpu:\n  memory_limit: 18446744073709551615\n", say: "18446744073709551615 is more bytes than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var args []string
			if tc.file != "" {
				args = []string{"-config=" + writeConfig(t, tc.file)}
			}
			l, err := Read("compute", sizeKeys, Source{Args: args, Env: tc.env, Usage: io.Discard})
			if err != nil {
				t.Fatal(err)
			}
			vs := l.Values()
			n := vs.ByteSize("gpu.memory_limit")
			err = vs.Err()
			if _, ok := err.(*Error); !ok || !strings.Contains(err.Error(), `config key "gpu.memory_limit"`) || !strings.Contains(err.Error(), tc.say) {
				t.Errorf("ByteSize = %d, err %v; want a config error naming gpu.memory_limit and saying %q", n, err, tc.say)
			}
		})
	}
}
