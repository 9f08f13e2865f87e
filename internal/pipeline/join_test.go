package pipeline

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/perflab/perflab/internal/site"
)

// TestJoinDownloads: data/all.* spliced from the studies' own downloads are
// the bytes of marshalling every row at once, with studies without rows.
func TestJoinDownloads(t *testing.T) {
	a := []Record{{Study: "a", Run: "r1", Command: "vllm serve \"x\",\nnext"}, {Study: "a", Run: "r2", LogLine: "3"}}
	b := []Record{{Study: "b", Run: "r", Failed: true, Error: "OOM"}}
	cases := [][][]Record{nil, {nil}, {a}, {nil, a, nil, b, nil}, {b, a}}
	for _, studies := range cases {
		var all []Record
		var ids []string
		mem := &lockedFiles{files: site.Files{}}
		for i, rows := range studies {
			all = append(all, rows...)
			id := fmt.Sprint("s", i)
			ids = append(ids, id)
			if err := addRecords(mem, "data/"+id, rows); err != nil {
				t.Fatal(err)
			}
		}
		if err := joinDownloads(ids, mem.ReadFile, mem); err != nil {
			t.Fatal(err)
		}
		wantCSV, wantJSON, err := marshalRecords("all", all)
		if err != nil {
			t.Fatal(err)
		}
		if got := mem.files["data/all.csv"]; !bytes.Equal(got, wantCSV) {
			t.Errorf("%d studies: CSV\n%s\nwant\n%s", len(studies), got, wantCSV)
		}
		if got := mem.files["data/all.json"]; !bytes.Equal(got, wantJSON) {
			t.Errorf("%d studies: JSON\n%s\nwant\n%s", len(studies), got, wantJSON)
		}
	}
}
