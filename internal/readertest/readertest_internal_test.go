package readertest

import (
	"reflect"
	"testing"
)

func TestDecodeKeepsIntegersExactAndFloatsApart(t *testing.T) {
	tab, err := decode([]byte(`{"columns":["a","b","c"],"types":["Int64","Float64","List(Int32)"],` +
		`"rows":[[9223372036854775807,2.0,[1,null,-3]],[null,1e-3,null]]}` + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := [][]any{{int64(9223372036854775807), 2.0, []any{int64(1), nil, int64(-3)}}, {nil, 0.001, nil}}
	if !reflect.DeepEqual(tab.Rows, want) {
		t.Errorf("rows %#v, want %#v", tab.Rows, want)
	}
	if got := tab.Column("b"); !reflect.DeepEqual(got, []any{2.0, 0.001}) {
		t.Errorf("column b %v", got)
	}
}

func TestDecodeRejectsShortRows(t *testing.T) {
	if _, err := decode([]byte(`{"columns":["a","b"],"types":["Int64","Int64"],"rows":[[1]]}`)); err == nil {
		t.Error("a row of one value for two columns decodes")
	}
}
