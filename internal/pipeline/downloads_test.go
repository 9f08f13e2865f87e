package pipeline

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/gocarina/gocsv"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/downloads"
)

// csvRow is how a reader of data/*.csv would parse it: metrics as optional
// numbers, empty cells as nil.
type csvRow struct {
	Study                string `csv:"study"`
	Model                string `csv:"model"`
	GPU                  string `csv:"gpu"`
	GPUsPerNode          int    `csv:"gpus_per_node"`
	Nodes                int    `csv:"nodes"`
	Objective            string `csv:"objective"`
	Run                  string `csv:"run"`
	RunName              string `csv:"run_name"`
	Engine               string `csv:"engine"`
	EngineVersion        string `csv:"engine_version"`
	Command              string `csv:"command"`
	GPUs                 int    `csv:"gpus"`
	Failed               bool   `csv:"failed"`
	Error                string `csv:"error"`
	Workload             string `csv:"workload"`
	LogFile              string `csv:"log_file"`
	LogLine              opt    `csv:"log_line"`
	Completed            opt    `csv:"completed"`
	Duration             opt    `csv:"duration"`
	TotalTokenThroughput opt    `csv:"total_token_throughput"`
	P99ITL               opt    `csv:"p99_itl_ms"`
	MeanE2EL             opt    `csv:"mean_e2el_ms"`
}

// opt is an optional number: an empty cell is absent, not 0.
type opt struct {
	v  float64
	ok bool
}

func (o *opt) UnmarshalCSV(s string) error {
	if s == "" {
		*o = opt{}
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	*o = opt{f, err == nil}
	return err
}

func (o opt) String() string {
	if !o.ok {
		return "(empty)"
	}
	return strconv.FormatFloat(o.v, 'f', -1, 64)
}

func (o opt) is(f float64) bool { return o.ok && o.v == f }

// wantColumns is the documented column order (docs/downloads.md).
var wantColumns = "study,model,gpu,gpus_per_node,nodes,objective,run,run_name,engine,engine_version,command,gpus,failed,error,workload,log_file,log_line," +
	"completed,failed_requests,duration,total_input_tokens,total_output_tokens,request_throughput,output_throughput,total_token_throughput," +
	"mean_ttft_ms,median_ttft_ms,p99_ttft_ms,mean_tpot_ms,median_tpot_ms,p99_tpot_ms,mean_itl_ms,median_itl_ms,p99_itl_ms,mean_e2el_ms,median_e2el_ms,p99_e2el_ms," +
	"replicas,served_model,excluded,excluded_by,repeat,repeats,headline_mean,headline_half_width,sweep_key,sweep_load"

func parseCSV(t *testing.T, data []byte) []csvRow {
	t.Helper()
	var rows []csvRow
	if err := gocsv.UnmarshalBytes(data, &rows); err != nil {
		t.Fatalf("parsing the CSV back: %v", err)
	}
	return rows
}

func findRow(rows []csvRow, study, run, workload string) *csvRow {
	for i := range rows {
		if rows[i].Study == study && rows[i].Run == run && rows[i].Workload == workload {
			return &rows[i]
		}
	}
	return nil
}

// lineOf returns the 1-based line of a log file.
func lineOf(t *testing.T, file string, n int) string {
	t.Helper()
	// log_file is relative to the results folder's parent: the repository root.
	data, err := os.ReadFile(filepath.Join("../..", filepath.FromSlash(file)))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	if n < 1 || n > len(lines) {
		t.Fatalf("%s has no line %d", file, n)
	}
	return lines[n-1]
}

func TestDownloadsCSV(t *testing.T) {
	t.Parallel()
	_, files := buildRepo(t, repoDirs)
	all := files["data/all.csv"]
	header, _, _ := strings.Cut(string(all), "\n")
	if header != wantColumns {
		t.Fatalf("data/all.csv header:\n got %s\nwant %s", header, wantColumns)
	}
	rows := parseCSV(t, all)
	var perStudy int
	studies, err := filepath.Glob(filepath.Join(repoDirs.Results, "*", "study.yaml"))
	if err != nil || len(studies) == 0 {
		t.Fatalf("no study in %s: %v", repoDirs.Results, err)
	}
	for _, file := range studies {
		id := filepath.Base(filepath.Dir(file))
		data := files["data/"+id+".csv"]
		if data == nil {
			t.Fatalf("no data/%s.csv", id)
		}
		if !bytes.HasPrefix(data, []byte(wantColumns+"\n")) {
			t.Errorf("data/%s.csv: wrong header", id)
		}
		perStudy += len(parseCSV(t, data))
	}
	if perStudy != len(rows) || len(rows) == 0 {
		t.Errorf("all.csv has %d rows, the studies %d", len(rows), perStudy)
	}

	r := findRow(rows, "qwen3-235b-a22b-a100", "vllm-tp8", "sharegpt")
	if r == nil {
		t.Fatal("no row for qwen3-235b-a22b-a100 / vllm-tp8 / sharegpt")
	}
	if !r.TotalTokenThroughput.is(3792.5) {
		t.Errorf("total_token_throughput = %v, want 3792.5", r.TotalTokenThroughput)
	}
	if !r.Completed.is(1000) || !r.Duration.is(109) {
		t.Errorf("completed, duration = %v, %v; want 1000, 109", r.Completed, r.Duration)
	}
	if !r.P99ITL.is(185.41) {
		t.Errorf("p99_itl_ms = %v, want 185.41", r.P99ITL)
	}
	if r.MeanE2EL.ok {
		t.Errorf("mean_e2el_ms = %v, want an empty cell (the log has none)", r.MeanE2EL)
	}
	if r.Model != "Qwen/Qwen3-235B-A22B-Instruct-2507" || r.GPU != "NVIDIA A100 SXM 80GB" || r.GPUsPerNode != 8 || r.Nodes != 1 ||
		r.Engine != "vllm" || r.EngineVersion != "v0.11.0" || r.GPUs != 8 || r.Failed || r.Objective != "throughput" ||
		r.Command != "vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507 -tp 8" {
		t.Errorf("row = %+v", *r)
	}
	if r.LogFile != "results/qwen3-235b-a22b-a100/runs/vllm-tp8/sharegpt.log" || !r.LogLine.ok {
		t.Fatalf("log_file, log_line = %q, %v", r.LogFile, r.LogLine)
	}
	// log_line is the block's first line; its metric lines follow it.
	if got := lineOf(t, r.LogFile, int(r.LogLine.v)); !strings.Contains(got, "Serving Benchmark Result") {
		t.Errorf("%s:%v = %q, want the result banner", r.LogFile, r.LogLine, got)
	}
	if got := lineOf(t, r.LogFile, int(r.LogLine.v)+9); !strings.HasPrefix(got, "Total Token throughput") || !strings.HasSuffix(got, "3792.50") {
		t.Errorf("%s:%d = %q, want the total token throughput 3792.50", r.LogFile, int(r.LogLine.v)+9, got)
	}

	// Every metric printed with a value is in the CSV as printed.
	raw := string(files["data/all.csv"])
	if !strings.Contains(raw, ",3792.50,") {
		t.Error("total_token_throughput is not written with the decimals the log printed (3792.50)")
	}

	// A failed run: one row, failed=true, its error, no workload and no metric.
	f := findRow(rows, "qwen3-32b-a100", "trtllm-fp8", "")
	if f == nil {
		t.Fatal("no row for the failed run qwen3-32b-a100 / trtllm-fp8")
	}
	if !f.Failed || f.Error != "RuntimeError: Unsupported SM version for FP8 block scaling GEMM" || f.LogLine.ok || f.TotalTokenThroughput.ok {
		t.Errorf("failed row = %+v", *f)
	}
	n := 0
	for _, row := range rows {
		if row.Run == "trtllm-fp8" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the failed run has %d rows, want 1", n)
	}
}

func TestDownloadsJSON(t *testing.T) {
	t.Parallel()
	_, files := buildRepo(t, repoDirs)
	var csvRows []downloads.Record
	if err := gocsv.UnmarshalBytes(files["data/all.csv"], &csvRows); err != nil {
		t.Fatal(err)
	}
	var jsonRows []downloads.Record
	if err := json.Unmarshal(files["data/all.json"], &jsonRows); err != nil {
		t.Fatal(err)
	}
	if len(jsonRows) != len(csvRows) {
		t.Fatalf("all.json has %d records, all.csv %d", len(jsonRows), len(csvRows))
	}
	for i := range jsonRows { // the CSV's text cells cannot start a formula
		v := reflect.ValueOf(&jsonRows[i]).Elem()
		for j := 0; j < v.NumField(); j++ {
			if f := v.Field(j); f.Type() == reflect.TypeFor[string]() {
				f.SetString(benchlog.SpreadsheetText(f.String()))
			}
		}
	}
	for i := range jsonRows {
		a, b := jsonRows[i], csvRows[i]
		// JSON numbers lose trailing zeros in no reader; compare as numbers.
		fa, oka := a.TotalTokenThroughput.Float()
		fb, okb := b.TotalTokenThroughput.Float()
		a.TotalTokenThroughput, b.TotalTokenThroughput = "", ""
		if a != b || fa != fb || oka != okb {
			t.Errorf("record %d differs between JSON and CSV:\n%+v\n%+v", i, a, b)
		}
	}
	// Absent metrics are null, not 0.
	var generic []map[string]any
	if err := json.Unmarshal(files["data/qwen3-32b-a100.json"], &generic); err != nil {
		t.Fatal(err)
	}
	for _, rec := range generic {
		if rec["run"] == "trtllm-fp8" {
			if rec["total_token_throughput"] != nil || rec["failed"] != true {
				t.Errorf("failed run record = %v", rec)
			}
		}
	}
}

// TestDownloadsSorted: rows in study, run, workload order; two builds equal.
func TestDownloadsSorted(t *testing.T) {
	t.Parallel()
	p, files := buildRepo(t, repoDirs)
	rows := parseCSV(t, files["data/all.csv"])
	order := map[string]int{}
	for _, res := range p.Results {
		for i, w := range res.Study.Workloads {
			order[res.Study.ID+"/"+w.ID] = i
		}
	}
	for i := 1; i < len(rows); i++ {
		a, b := rows[i-1], rows[i]
		key := func(r csvRow) string {
			line := int(r.LogLine.v)
			return r.Study + "\x00" + r.Run + "\x00" + strconv.Itoa(1000+order[r.Study+"/"+r.Workload]) + "\x00" + strconv.Itoa(1e9+line)
		}
		if key(a) > key(b) {
			t.Errorf("rows %d and %d out of order: %s/%s/%s before %s/%s/%s", i, i+1, a.Study, a.Run, a.Workload, b.Study, b.Run, b.Workload)
		}
	}
	_, again := buildRepo(t, repoDirs)
	for _, name := range []string{"data/all.csv", "data/all.json"} {
		if !bytes.Equal(files[name], again[name]) {
			t.Errorf("%s differs between two builds", name)
		}
	}
}

func TestMarshalCSVEmpty(t *testing.T) {
	t.Parallel()
	data, err := downloads.MarshalCSV(nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != wantColumns+"\n" {
		t.Errorf("empty CSV = %q, want the header only", data)
	}
}
