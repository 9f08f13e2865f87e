package build

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// checkRecordsJSON fails when appendRecordsJSON and json.MarshalIndent
// disagree: on the bytes, or on whether the rows can be written at all.
func checkRecordsJSON(t testing.TB, rows []Record) {
	t.Helper()
	ref := rows
	if ref == nil {
		ref = []Record{} // marshalRecords' old way: [] rather than null
	}
	want, wantErr := json.MarshalIndent(ref, "", "  ")
	got, gotErr := appendRecordsJSON(nil, rows)
	if (gotErr != nil) != (wantErr != nil) {
		t.Fatalf("rows %+v:\nerror %v, encoding/json's error %v", rows, gotErr, wantErr)
	}
	if wantErr == nil && !bytes.Equal(got, want) {
		t.Fatalf("rows %+v:\n got %q\nwant %q", rows, got, want)
	}
}

// repositoryRows calls check with the rows of each study of the
// repository's results, then with all of them.
func repositoryRows(t *testing.T, check func(testing.TB, []Record)) {
	p, err := Load(repoDirs)
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.ToSlash(repoDirs.Results)
	var all []Record
	for _, res := range p.Results {
		rows := Records(res.Study, root, res.Report.Excluded)
		if len(rows) == 0 {
			t.Errorf("%s: no rows", res.Study.ID)
		}
		check(t, rows)
		all = append(all, rows...)
	}
	check(t, all)
}

func TestRecordsJSONRepository(t *testing.T) { repositoryRows(t, checkRecordsJSON) }

// repositoryRecords returns the rows of every study of the repository.
func repositoryRecords(tb testing.TB) []Record {
	p, err := Load(repoDirs)
	if err != nil {
		tb.Fatal(err)
	}
	var rows []Record
	for _, res := range p.Results {
		rows = append(rows, Records(res.Study, filepath.ToSlash(repoDirs.Results), res.Report.Excluded)...)
	}
	return rows
}

// fuzzRecords spreads fuzzed values over every kind of field of two rows.
func fuzzRecords(a, b, num string, n int, failed bool, completed Number) []Record {
	return []Record{
		{Study: a, Model: b, GPU: a + b, GPUsPerNode: n, Nodes: -n, Objective: b + a, Run: a, RunName: b,
			Engine: a, EngineVersion: b, Command: a + "\n" + b, GPUs: n, Failed: failed, Error: b,
			Workload: a, LogFile: b, LogLine: Number(num), MeanTTFT: "1.5"},
		{Error: a, P99E2EL: Number(num), Completed: completed},
	}
}

// trickyStrings are the cases where JSON encoders differ.
var trickyStrings = []string{
	"",
	"plain ascii",
	`<script>alert("x & y")</script>`,
	"quote \" backslash \\ slash /",
	"\b\f\n\r\t",
	"\x00\x01\x1f\x7f",
	"line\u2028sep\u2029par",
	"é 日本 🎉 \u00a0",
	"\xff\xfe invalid",
	"\xed\xa0\x80 surrogate",
	"truncated \xe6\x97",
	"\xe2\x80", // U+2028 cut short
	"\xf4\x90\x80\x80 above U+10FFFF",
	"\xc0\xaf overlong",
	"\ufffd replacement",
}

// numberStrings are Number values, valid or not, in JSON's or Go's eyes.
var numberStrings = []string{
	"", "0", "-0", "1", "3792.50", "0.000", "1e5", "1E+2", "-1.5e-3", "1e400", "-1e400", "1e-400",
	"1" + strings.Repeat("0", 308), "1" + strings.Repeat("0", 309), "0." + strings.Repeat("0", 400) + "1",
	"NaN", "Inf", "+Inf", "-Inf", "inf", "0x10", "0x1p-2", "01", "-01", "+1", ".5", "1.", "1e", "1e+",
	"-", " 1", "1 ", "1_000", "1.2.3", "abc", "null",
}

func TestRecordsJSONStrings(t *testing.T) {
	checkRecordsJSON(t, nil)
	checkRecordsJSON(t, []Record{})
	checkRecordsJSON(t, []Record{{}})
	for _, s := range trickyStrings {
		checkRecordsJSON(t, []Record{{Study: s, Command: s + s, Error: s, LogFile: s}, {Model: s, GPUs: -1, Failed: true}})
	}
	var all []Record
	for i, s := range trickyStrings {
		all = append(all, Record{Study: s, RunName: trickyStrings[len(trickyStrings)-1-i], Nodes: i})
	}
	checkRecordsJSON(t, all)
}

func TestRecordsJSONNumbers(t *testing.T) {
	for _, n := range numberStrings {
		checkRecordsJSON(t, []Record{{LogLine: "7", P99E2EL: Number(n)}})
		checkRecordsJSON(t, []Record{{}, {Completed: Number(n), Duration: "1"}})
	}
}

// TestRecordsJSONEveryField gives every field of Record its own value, so a
// getter that reads the wrong field shows.
func TestRecordsJSONEveryField(t *testing.T) {
	r := distinctRecord(t)
	checkRecordsJSON(t, []Record{r, {}, r})
}

// distinctRecord gives every field of a Record its own value (a valid
// Number in number fields), so that a getter reading the wrong field shows.
func distinctRecord(t *testing.T) Record {
	var r Record
	v := reflect.ValueOf(&r).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString(strconv.Itoa(i + 100))
		case reflect.Int:
			f.SetInt(int64(i + 100))
		case reflect.Bool:
			f.SetBool(true)
		default:
			t.Fatalf("Record.%s: no test value for %s", v.Type().Field(i).Name, f.Kind())
		}
	}
	return r
}

// TestRecordFieldsMatchStruct ties recordFields to Record: the same json
// names in the same order, each read by a getter of its kind.
func TestRecordFieldsMatchStruct(t *testing.T) {
	typ := reflect.TypeFor[Record]()
	if typ.NumField() != len(recordFields) {
		t.Errorf("Record has %d fields, recordFields %d", typ.NumField(), len(recordFields))
	}
	for i := range min(typ.NumField(), len(recordFields)) {
		sf, rf := typ.Field(i), recordFields[i]
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name != rf.name {
			t.Errorf("field %d: Record.%s is %q in JSON, recordFields has %q", i, sf.Name, name, rf.name)
		}
		var ok bool
		switch {
		case sf.Type == reflect.TypeFor[Number]():
			ok = rf.num != nil
		case sf.Type.Kind() == reflect.String:
			ok = rf.str != nil
		case sf.Type.Kind() == reflect.Int:
			ok = rf.integer != nil
		case sf.Type.Kind() == reflect.Bool:
			ok = rf.flag != nil
		}
		if !ok {
			t.Errorf("field %d: Record.%s (%s) has no getter of its type in recordFields", i, sf.Name, sf.Type)
		}
	}
}

func TestMarshalRecordsBadNumber(t *testing.T) {
	rows := []Record{{Study: "s"}, {Study: "s", LogFile: "results/s/runs/r/w.log", LogLine: "12", MeanTTFT: "NaN"}}
	_, _, err := marshalRecords("data/s", rows)
	if err == nil {
		t.Fatal("no error for a NaN metric")
	}
	want := `data/s.json: record 2 (results/s/runs/r/w.log:12), mean_ttft_ms: "NaN" is not a number`
	if err.Error() != want {
		t.Errorf("error:\n got %s\nwant %s", err, want)
	}
}

func FuzzRecordsJSON(f *testing.F) {
	for i, s := range trickyStrings {
		f.Add(s, trickyStrings[len(trickyStrings)-1-i], numberStrings[i%len(numberStrings)], i-3, i%2 == 0)
	}
	for _, n := range numberStrings {
		f.Add("a", "b", n, 0, false)
	}
	f.Fuzz(func(t *testing.T, a, b, num string, n int, failed bool) {
		rows := fuzzRecords(a, b, num, n, failed, "0") // completed: a JSON number
		checkRecordsJSON(t, rows)
		checkRecordsJSON(t, rows[1:])
	})
}

// BenchmarkRecordsJSON compares the encoder with encoding/json on the
// repository's rows.
func BenchmarkRecordsJSON(b *testing.B) {
	rows := repositoryRecords(b)
	b.Run("append", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := appendRecordsJSON(nil, rows); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("MarshalIndent", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.MarshalIndent(rows, "", "  "); err != nil {
				b.Fatal(err)
			}
		}
	})
}
