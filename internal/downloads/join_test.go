package downloads

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

// memFiles holds files in memory.
type memFiles map[string][]byte

func (m memFiles) Add(name string, data []byte) error {
	m[name] = bytes.Clone(data)
	return nil
}

func (m memFiles) ReadFile(name string) ([]byte, error) {
	data, ok := m[name]
	if !ok {
		return nil, fmt.Errorf("%s was not added", name)
	}
	return data, nil
}

// Create makes a file that is added on Close.
func (m memFiles) Create(name string) (io.WriteCloser, error) {
	return &memFile{m: m, name: name}, nil
}

type memFile struct {
	bytes.Buffer
	m    memFiles
	name string
}

func (f *memFile) Close() error { return f.m.Add(f.name, f.Bytes()) }

// TestJoinDownloads: data/all.* spliced from the studies' own downloads are
// the bytes of marshalling every row at once, with studies without rows.
func TestJoinDownloads(t *testing.T) {
	a := []Record{{Study: "a", Run: "r1", Command: "vllm serve \"x\",\nnext"}, {Study: "a", Run: "r2", LogLine: "3"}}
	b := []Record{{Study: "b", Run: "r", Failed: true, Error: "OOM"}}
	cases := [][][]Record{nil, {nil}, {a}, {nil, a, nil, b, nil}, {b, a}}
	for _, studies := range cases {
		var all []Record
		var ids []string
		mem := memFiles{}
		for i, rows := range studies {
			all = append(all, rows...)
			id := fmt.Sprint("s", i)
			ids = append(ids, id)
			if err := AddRecords(mem, "data/"+id, rows); err != nil {
				t.Fatal(err)
			}
		}
		if err := Join(ids, mem.ReadFile, mem.Create); err != nil {
			t.Fatal(err)
		}
		wantCSV, wantJSON, err := MarshalRecords("all", all)
		if err != nil {
			t.Fatal(err)
		}
		if got := mem["data/all.csv"]; !bytes.Equal(got, wantCSV) {
			t.Errorf("%d studies: CSV\n%s\nwant\n%s", len(studies), got, wantCSV)
		}
		if got := mem["data/all.json"]; !bytes.Equal(got, wantJSON) {
			t.Errorf("%d studies: JSON\n%s\nwant\n%s", len(studies), got, wantJSON)
		}
	}
}
