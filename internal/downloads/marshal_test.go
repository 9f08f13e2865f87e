package downloads

import (
	"encoding/json"
	"github.com/perflab/perflab/internal/assess"
	"os"
	"strings"
	"testing"

	"github.com/gocarina/gocsv"

	"github.com/perflab/perflab/internal/study"
)

// repositoryRecords are the records of the repository's own studies.
func repositoryRecords(tb testing.TB) []Record {
	const root = "../../results"
	studies, _, err := study.LoadAll(os.DirFS(root), root)
	if err != nil {
		tb.Fatal(err)
	}
	var rows []Record
	for _, s := range studies {
		if s.Article() {
			continue
		}
		rows = append(rows, Records(s, root, assess.Study(s).Report.Excluded)...)
	}
	return rows
}

// The downloads read back as they were written: CSV through gocsv (text
// that would start a formula with its leading '), JSON through
// encoding/json.
func TestDownloadsRoundTrip(t *testing.T) {
	rows := repositoryRecords(t)
	csvData, jsonData, err := MarshalRecords("data/all", rows)
	if err != nil {
		t.Fatal(err)
	}
	var fromCSV, fromJSON []Record
	if err := gocsv.UnmarshalBytes(csvData, &fromCSV); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(jsonData, &fromJSON); err != nil {
		t.Fatal(err)
	}
	if len(fromCSV) != len(rows) || len(fromJSON) != len(rows) {
		t.Fatalf("%d rows, read back %d from CSV and %d from JSON", len(rows), len(fromCSV), len(fromJSON))
	}
	safe := spreadsheetSafeRows(rows) // the CSV's text cells cannot start a formula
	for i := range rows {
		if fromJSON[i] != rows[i] || fromCSV[i] != safe[i] {
			t.Errorf("row %d does not read back:\n%+v\n%+v\n%+v", i, rows[i], fromCSV[i], fromJSON[i])
		}
	}
	if _, j, _ := MarshalRecords("data/none", nil); string(j) != "[]\n" {
		t.Errorf("no rows in JSON: %q, want []", j)
	}
}

// A text cell a spreadsheet would run as a formula gets a leading '; a
// negative number does not.
func TestRecordsCSVFormulaCells(t *testing.T) {
	rows := []Record{{Study: "s", Model: "=HYPERLINK(\"http://x\")", RunName: "+1", Engine: "-cmd", EngineVersion: "@SUM(A1)",
		Command: "\tvllm", Error: "\rboom", Workload: "w", MeanTTFT: "-12.5"}}
	out, err := MarshalCSV(rows)
	if err != nil {
		t.Fatal(err)
	}
	// A lone carriage return is a line end (plain.Block): quoted, and
	// behind a ' like every cell that starts a new line.
	if !strings.Contains(string(out), "\"'\nboom\"") {
		t.Errorf("no quoted cell \"'\\nboom\" in %q", out)
	}
	line := strings.SplitN(strings.Replace(string(out), "\"'\nboom\"", "boom", 1), "\n", 3)[1]
	for _, want := range []string{`"'=HYPERLINK(""http://x"")"`, ",'+1,", ",'-cmd,", ",'@SUM(A1),", "'\tvllm", ",-12.5,"} {
		if !strings.Contains(line, want) {
			t.Errorf("row %q lacks %q", line, want)
		}
	}
}

// A metric that is not a number is named with its record and log line.
func TestMarshalRecordsBadNumber(t *testing.T) {
	rows := []Record{{Study: "s"}, {Study: "s", LogFile: "results/s/runs/r/w.log", LogLine: "12", MeanTTFT: "NaN"}}
	_, _, err := MarshalRecords("data/s", rows)
	want := `data/s.json: record 2 (results/s/runs/r/w.log:12), mean_ttft_ms: "NaN" is not a number`
	if err == nil || err.Error() != want {
		t.Errorf("error:\n got %v\nwant %s", err, want)
	}
	for _, n := range []string{"0", "-0", "3792.50", "1e5", "-1.5e-3"} {
		if !isJSONNumber(n) {
			t.Errorf("%q is a JSON number", n)
		}
	}
	for _, n := range []string{"NaN", "Inf", "+1", ".5", "1.", "0x10", "01", " 1", "null", "abc"} {
		if isJSONNumber(n) {
			t.Errorf("%q is not a JSON number", n)
		}
	}
}

// Whatever the strings, the JSON is valid and both downloads read back.
func FuzzDownloads(f *testing.F) {
	f.Add("plain", "=SUM(A1)", "3792.50")
	f.Add("\x00\xff", "line\u2028sep \"q\" \\", "-0")
	f.Fuzz(func(t *testing.T, a, b, num string) {
		rows := []Record{{Study: a, Model: b, Command: a + "\n" + b, Error: b, LogLine: Number(num)}}
		csvData, jsonData, err := MarshalRecords("data/x", rows)
		if err != nil {
			if isJSONNumber(num) || num == "" {
				t.Fatalf("valid rows refused: %v", err)
			}
			return
		}
		if !json.Valid(jsonData) {
			t.Fatalf("invalid JSON: %q", jsonData)
		}
		var back []Record
		if err := gocsv.UnmarshalBytes(csvData, &back); err != nil || len(back) != 1 {
			t.Fatalf("CSV does not read back: %v (%d rows)", err, len(back))
		}
	})
}

func BenchmarkMarshalRecords(b *testing.B) {
	rows := repositoryRecords(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := MarshalRecords("data/all", rows); err != nil {
			b.Fatal(err)
		}
	}
}
