package downloads

import (
	"bytes"
	"encoding/json"
	"testing"
)

func FuzzMarshalIndent(f *testing.F) {
	for _, seed := range []string{
		`{}`, `[]`, `{"a":[]}`, `[{},[],{"b":{}}]`, `{"x":1,"y":[1,2,{"z":null}]}`,
		`"a\"b\\"`, `{"k\"{[,:":"v]},\\"}`, `[true,false,null,-1.5e10,"<&>"]`,
		`{"a":{"b":{"c":[[[]]]}}}`, `"\u2028"`, `0`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		if d.Decode(&v) != nil {
			return
		}
		got, err := MarshalIndent(v)
		if err != nil {
			return
		}
		want, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			t.Fatalf("MarshalIndent: %v", err)
		}
		if want = append(want, '\n'); !bytes.Equal(got, want) {
			t.Fatalf("indented %s as\n%s\nencoding/json:\n%s", data, got, want)
		}
	})
}

func TestMarshalIndentRecords(t *testing.T) {
	rows := plainRows([]Record{{Study: "s", Run: "r"}, {Study: "t"}})
	got, err := MarshalIndent(rows)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.MarshalIndent(rows, "", "  ")
	if !bytes.Equal(got, append(want, '\n')) {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
