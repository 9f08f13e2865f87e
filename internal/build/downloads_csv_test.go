package build

import (
	"bytes"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gocarina/gocsv"

	"github.com/perflab/perflab/internal/benchlog"
)

// gocsvMarshal is MarshalCSV as it was written with gocsv: the reference the
// reflection-free encoder must match byte for byte.
func gocsvMarshal(rows []Record) ([]byte, error) {
	rows = spreadsheetSafeRows(rows)
	var buf bytes.Buffer
	if len(rows) == 0 {
		if err := gocsv.Marshal([]Record{{}}, &buf); err != nil {
			return nil, err
		}
		line, _, _ := bytes.Cut(buf.Bytes(), []byte("\n"))
		return append(line, '\n'), nil
	}
	if err := gocsv.Marshal(rows, &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// spreadsheetSafeRows copies rows with every plain string field (not the
// Numbers) passed through benchlog.SpreadsheetText.
func spreadsheetSafeRows(rows []Record) []Record {
	out := slices.Clone(rows)
	for i := range out {
		v := reflect.ValueOf(&out[i]).Elem()
		for j := 0; j < v.NumField(); j++ {
			if f := v.Field(j); f.Type() == reflect.TypeFor[string]() {
				f.SetString(benchlog.SpreadsheetText(f.String()))
			}
		}
	}
	return out
}

// checkRecordsCSV fails when MarshalCSV and gocsv disagree.
func checkRecordsCSV(t testing.TB, rows []Record) {
	t.Helper()
	want, err := gocsvMarshal(rows)
	if err != nil {
		t.Fatalf("gocsv: %v", err)
	}
	got, err := MarshalCSV(rows)
	if err != nil {
		t.Fatalf("rows %+v: %v", rows, err)
	}
	if !bytes.Equal(got, want) {
		i := 0
		for i < min(len(got), len(want)) && got[i] == want[i] {
			i++
		}
		from := max(i-60, 0)
		t.Fatalf("%d rows, first difference at byte %d:\n got …%q\nwant …%q\nrows %#v",
			len(rows), i, got[from:min(i+60, len(got))], want[from:min(i+60, len(want))], rows[:min(len(rows), 2)])
	}
}

func TestRecordsCSVRepository(t *testing.T) { repositoryRows(t, checkRecordsCSV) }

// csvTrickyStrings are the cases where encoding/csv quotes, or nearly does.
var csvTrickyStrings = []string{
	"a,b", ",", ",,", "trailing,", `"`, `""`, `say "hi"`, `"quoted"`, `a""b`,
	"line\nbreak", "\n", "cr\rhere", "\r", "crlf\r\nend", "\r\n", "\n\r",
	" leading space", "trailing space ", "\tleading tab", "\vvt", "\fff",
	"\u00a0nbsp first", "\u0085nel first", "\u2028ls first", "\u3000ideographic", "\u1680ogham",
	"\u200bzero width", "x\u00a0inner", "\x85 lone byte", "\xa0 lone byte",
	`\.`, `\.x`, ` \.`, `\`, `.`, `\\.`, `\.` + "\n",
	"é,日本", "🎉\"", "\xff,\xfe", "\x00nul", "semi;colon", "tab\tinside", "'single'",
	"=1+1", "#comment",
}

func TestRecordsCSVStrings(t *testing.T) {
	checkRecordsCSV(t, nil)
	checkRecordsCSV(t, []Record{})
	checkRecordsCSV(t, []Record{{}})
	strs := append(append([]string{}, trickyStrings...), csvTrickyStrings...)
	for _, s := range strs {
		checkRecordsCSV(t, []Record{{Study: s, Command: s + s, Error: s, LogFile: s}, {Model: s, GPUs: -1, Failed: true}})
		checkRecordsCSV(t, []Record{{P99E2EL: Number(s)}, {LogLine: Number(s), Completed: Number(s + s)}})
	}
	var all []Record
	for i, s := range strs {
		all = append(all, Record{Study: s, RunName: strs[len(strs)-1-i], Nodes: i, Duration: Number(s)})
	}
	checkRecordsCSV(t, all)
}

func TestRecordsCSVNumbers(t *testing.T) {
	for _, n := range numberStrings {
		checkRecordsCSV(t, []Record{{LogLine: "7", P99E2EL: Number(n)}})
		checkRecordsCSV(t, []Record{{}, {Completed: Number(n), Duration: "1"}})
	}
	for _, n := range []int{0, 1, -1, 9, 10, -10, math.MaxInt32, math.MinInt32, math.MaxInt, math.MinInt} {
		checkRecordsCSV(t, []Record{{GPUsPerNode: n, Nodes: -n, GPUs: n, Failed: n%2 == 0}})
	}
}

// TestRecordsCSVEveryField gives every field of Record its own value, so a
// getter that reads the wrong field shows.
func TestRecordsCSVEveryField(t *testing.T) {
	r := distinctRecord(t)
	checkRecordsCSV(t, []Record{r, {}, r})
}

// TestRecordFieldsMatchCSVTags ties the column names of recordFields, which
// both downloads write, to Record's csv tags.
func TestRecordFieldsMatchCSVTags(t *testing.T) {
	typ := reflect.TypeFor[Record]()
	if typ.NumField() != len(recordFields) {
		t.Fatalf("Record has %d fields, recordFields %d", typ.NumField(), len(recordFields))
	}
	var names []string
	for i := range typ.NumField() {
		sf := typ.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("csv"), ",")
		if name != recordFields[i].name {
			t.Errorf("field %d: Record.%s is %q in CSV, recordFields has %q", i, sf.Name, name, recordFields[i].name)
		}
		names = append(names, name)
	}
	if want := strings.Join(names, ",") + "\n"; csvHeader != want {
		t.Errorf("csvHeader = %q, want %q", csvHeader, want)
	}
}

func FuzzRecordsCSV(f *testing.F) {
	strs := append(append([]string{}, trickyStrings...), csvTrickyStrings...)
	for i, s := range strs {
		f.Add(s, strs[len(strs)-1-i], numberStrings[i%len(numberStrings)], i-3, i%2 == 0)
	}
	for _, n := range numberStrings {
		f.Add("a", "b", n, 0, false)
	}
	f.Fuzz(func(t *testing.T, a, b, num string, n int, failed bool) {
		rows := fuzzRecords(a, b, num, n, failed, Number(b))
		checkRecordsCSV(t, rows)
		checkRecordsCSV(t, rows[1:])
	})
}

// BenchmarkRecordsCSV compares the encoder with gocsv on the repository's
// rows.
func BenchmarkRecordsCSV(b *testing.B) {
	rows := repositoryRecords(b)
	b.Run("append", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := MarshalCSV(rows); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("gocsv", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := gocsvMarshal(rows); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// A text cell a spreadsheet would run as a formula starts with an
// apostrophe; numbers, negative ones included, are written as they are.
func TestRecordsCSVFormulaCells(t *testing.T) {
	rows := []Record{{Study: "s", Model: "=HYPERLINK(\"http://x\")", RunName: "+1", Engine: "-cmd", EngineVersion: "@SUM(A1)",
		Command: "\tvllm", Error: "\rboom", Workload: "w", MeanTTFT: "-12.5"}}
	out, err := MarshalCSV(rows)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.SplitN(string(out), "\n", 3)[1]
	for _, want := range []string{`"'=HYPERLINK(""http://x"")"`, ",'+1,", ",'-cmd,", ",'@SUM(A1),", "'\tvllm", "\"'\rboom\"", ",-12.5,"} {
		if !strings.Contains(line, want) {
			t.Errorf("row %q lacks %q", line, want)
		}
	}
	checkRecordsCSV(t, rows)
}
