package tools

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"reflect"
	"strings"
	"testing"
)

// FuzzInputObject: whatever arguments a model sends, a tool's input is
// an object or an error the model can read (one line), never a panic; an
// object written out again reads back the same; the fields a tool decodes
// from it hold what the object says.
func FuzzInputObject(f *testing.F) {
	for _, s := range []string{"", "null", "{}", `{"path":"a.txt"}`, `"{\"path\":\"a\"}"`, `[1]`, `{"path":1}`,
		`{"path":"p","n":"12.5","b":"true"}`, `{"n":1e400}`, `{"n":"NaN"}`, `{"path":"p","path":"q"}`, `{"b":"yes"}`, `"  {} "`, `{`, "\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		obj, err := InputObject(input)
		if err != nil {
			oneLineError(t, err)
			return
		}
		if obj == nil {
			t.Fatal("a nil object without an error")
		}
		b, err := json.Marshal(obj)
		if err != nil {
			t.Fatalf("the object %v cannot be written out: %v", obj, err)
		}
		again, err := InputObject(b)
		if err != nil || !maps.EqualFunc(obj, again, sameJSON) {
			t.Fatalf("%s read back as %v (%v), want %v", b, again, err, obj)
		}
		var path string
		var flag bool
		var n float64
		err = DecodeInput(input, Field{Name: "path", Required: true, Dst: &path}, Field{Name: "b", Dst: &flag}, Field{Name: "n", Dst: &n})
		if err != nil {
			oneLineError(t, err)
			return
		}
		var want string
		if json.Unmarshal(obj["path"], &want) != nil || want != path {
			t.Fatalf("path %q, want %q from %s", path, want, obj["path"])
		}
		if math.IsInf(n, 0) && !strings.Contains(strings.ToLower(string(obj["n"])), "inf") {
			t.Fatalf("n %v from %s", n, obj["n"])
		}
	})
}

// sameJSON says x and y are the same JSON value, however written (its
// numbers compared as written).
func sameJSON(x, y json.RawMessage) bool {
	a, errA := decodeAny(x)
	b, errB := decodeAny(y)
	return errA == nil && errB == nil && reflect.DeepEqual(a, b)
}

func decodeAny(raw json.RawMessage) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

// oneLineError fails t unless err is one line the model can read.
func oneLineError(t *testing.T, err error) {
	t.Helper()
	if msg := err.Error(); msg == "" || strings.ContainsAny(msg, "\n\r") {
		t.Fatalf("error %q: not one line", msg)
	}
}
