package benchlog

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"
)

// A row cut short (a field lost in a copy) is a problem on its line in
// both result CSVs read a run a row, never a run read column by guess.
func TestCSVRowShorterThanHeader(t *testing.T) {
	for _, file := range []string{"testdata/fireworks_summary.csv", "testdata/lmdeploy_restful_2024.csv"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n"))
		last := lines[len(lines)-1]
		lines[len(lines)-1] = last[:bytes.LastIndexByte(last, ',')] // one field fewer
		blocks, err := Parse(file, bytes.NewReader(bytes.Join(lines, []byte("\n"))))
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, b := range blocks {
			for _, p := range b.Problems {
				if strings.Contains(p.Error(), "fields, its header") && strings.Contains(p.Error(), ":"+strconv.Itoa(len(lines))+":") {
					found = true
					if len(b.Metrics) > 0 {
						t.Errorf("%s: the short row gave metrics %v", file, b.Metrics)
					}
				}
			}
		}
		if !found {
			t.Errorf("%s: no problem on line %d for a row one field short", file, len(lines))
		}
	}
}
