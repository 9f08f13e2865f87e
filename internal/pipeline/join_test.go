package pipeline

import (
	"bytes"
	"testing"
)

// TestJoinDownloads: data/all.* spliced from the studies' own downloads are
// the bytes of marshalling every row at once, with studies without rows.
func TestJoinDownloads(t *testing.T) {
	a := []Record{{Study: "a", Run: "r1", Command: "vllm serve \"x\",\nnext"}, {Study: "a", Run: "r2", LogLine: "3"}}
	b := []Record{{Study: "b", Run: "r", Failed: true, Error: "OOM"}}
	cases := [][][]Record{nil, {nil}, {a}, {nil, a, nil, b, nil}, {b, a}}
	for _, studies := range cases {
		var all []Record
		outs := make([]studyOutput, len(studies))
		for i, rows := range studies {
			all = append(all, rows...)
			var err error
			if outs[i].CSV, outs[i].JSON, err = marshalRecords("x", rows); err != nil {
				t.Fatal(err)
			}
		}
		wantCSV, wantJSON, err := marshalRecords("all", all)
		if err != nil {
			t.Fatal(err)
		}
		if got := joinCSV(outs); !bytes.Equal(got, wantCSV) {
			t.Errorf("%d studies: CSV\n%s\nwant\n%s", len(studies), got, wantCSV)
		}
		if got := joinJSON(outs); !bytes.Equal(got, wantJSON) {
			t.Errorf("%d studies: JSON\n%s\nwant\n%s", len(studies), got, wantJSON)
		}
	}
}
