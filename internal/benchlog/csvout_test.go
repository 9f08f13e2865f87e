package benchlog

import (
	"strings"
	"testing"
)

func TestWriteCSVFormulaCells(t *testing.T) {
	blocks := []Block{{File: "=cmd|' /C calc'!A0.log", Line: 3, EndLine: 9, Tool: "+tool", Version: "@1",
		Failure: &Failure{Kind: "-x", Message: "boom"},
		Metrics: map[string]Metric{"output_throughput": {Value: -1.5}}}}
	var b strings.Builder
	if err := WriteCSV(&b, blocks); err != nil {
		t.Fatal(err)
	}
	row := strings.Split(b.String(), "\n")[1]
	for _, want := range []string{"'=cmd|' /C calc'!A0.log,", ",'+tool,", ",'@1,", ",'-x: boom,", ",-1.5"} {
		if !strings.Contains(row, want) {
			t.Errorf("row %q lacks %q", row, want)
		}
	}
}
