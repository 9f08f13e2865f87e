// Package downloads makes a site's data files: each study's records
// (data/<study>.csv and .json), its analysis and its Benchmark Reports,
// and data/all.csv and data/all.json joined from the studies' own. It
// renders no page and writes to no disk.
package downloads

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/gocarina/gocsv"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/plain"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/serving"
	"github.com/perflab/perflab/internal/study"
)

// Record is one row of the downloads (data/<study>.csv, data/all.csv and their
// JSON twins): one result block of one workload of one run, or one row for a
// run that failed. docs/downloads.md documents every column; the order of the
// fields is the order of the CSV columns and must not change.
type Record struct {
	Study         string `csv:"study" json:"study"`
	Model         string `csv:"model" json:"model"`
	GPU           string `csv:"gpu" json:"gpu"`
	GPUsPerNode   int    `csv:"gpus_per_node" json:"gpus_per_node"`
	Nodes         int    `csv:"nodes" json:"nodes"`
	Objective     string `csv:"objective" json:"objective"`
	Run           string `csv:"run" json:"run"`
	RunName       string `csv:"run_name" json:"run_name"`
	Engine        string `csv:"engine" json:"engine"`
	EngineVersion string `csv:"engine_version" json:"engine_version"`
	Command       string `csv:"command" json:"command"`
	GPUs          int    `csv:"gpus" json:"gpus"`
	Failed        bool   `csv:"failed" json:"failed"`
	Error         string `csv:"error" json:"error"`
	Workload      string `csv:"workload" json:"workload"`
	LogFile       string `csv:"log_file" json:"log_file"`
	LogLine       Number `csv:"log_line" json:"log_line"`

	Completed            Number `csv:"completed" json:"completed"`
	FailedRequests       Number `csv:"failed_requests" json:"failed_requests"`
	Duration             Number `csv:"duration" json:"duration"`
	TotalInputTokens     Number `csv:"total_input_tokens" json:"total_input_tokens"`
	TotalOutputTokens    Number `csv:"total_output_tokens" json:"total_output_tokens"`
	RequestThroughput    Number `csv:"request_throughput" json:"request_throughput"`
	OutputThroughput     Number `csv:"output_throughput" json:"output_throughput"`
	TotalTokenThroughput Number `csv:"total_token_throughput" json:"total_token_throughput"`
	MeanTTFT             Number `csv:"mean_ttft_ms" json:"mean_ttft_ms"`
	MedianTTFT           Number `csv:"median_ttft_ms" json:"median_ttft_ms"`
	P99TTFT              Number `csv:"p99_ttft_ms" json:"p99_ttft_ms"`
	MeanTPOT             Number `csv:"mean_tpot_ms" json:"mean_tpot_ms"`
	MedianTPOT           Number `csv:"median_tpot_ms" json:"median_tpot_ms"`
	P99TPOT              Number `csv:"p99_tpot_ms" json:"p99_tpot_ms"`
	MeanITL              Number `csv:"mean_itl_ms" json:"mean_itl_ms"`
	MedianITL            Number `csv:"median_itl_ms" json:"median_itl_ms"`
	P99ITL               Number `csv:"p99_itl_ms" json:"p99_itl_ms"`
	MeanE2EL             Number `csv:"mean_e2el_ms" json:"mean_e2el_ms"`
	MedianE2EL           Number `csv:"median_e2el_ms" json:"median_e2el_ms"`
	P99E2EL              Number `csv:"p99_e2el_ms" json:"p99_e2el_ms"`

	// How the reports use the row: the replicas a run's figures are
	// projected by onto the node, the model its command serves, and
	// whether a check excluded it from every comparison (and by which rule).
	Replicas    int    `csv:"replicas" json:"replicas"`
	ServedModel string `csv:"served_model" json:"served_model"`
	Excluded    bool   `csv:"excluded" json:"excluded"`
	ExcludedBy  string `csv:"excluded_by" json:"excluded_by"`

	// Repeats (<workload>.run-<n>.log, or <workload>.c16.run-<n>.log of a
	// load of a sweep): the repeat of the row's log (empty for a plain
	// log), how many repeats the run has of the workload (or of the load),
	// and the mean of the study's headline metric over them with
	// the half-width of its 95 % interval (empty with one repeat).
	Repeat            Number `csv:"repeat" json:"repeat"`
	Repeats           int    `csv:"repeats" json:"repeats"`
	HeadlineMean      Number `csv:"headline_mean" json:"headline_mean"`
	HeadlineHalfWidth Number `csv:"headline_half_width" json:"headline_half_width"`
	// The load of a row of a swept workload: what varies (max_concurrency
	// or request_rate) and the point of the sweep, as study.yaml writes it.
	SweepKey  string `csv:"sweep_key" json:"sweep_key"`
	SweepLoad Number `csv:"sweep_load" json:"sweep_load"`
}

// metricFields maps the benchlog keys written to the downloads to their
// field. The CSV column is the key, except failed_requests (benchlog's
// "failed", renamed so it is not confused with a failed run).
func (r *Record) metricFields() []struct {
	key string
	dst *Number
} {
	return []struct {
		key string
		dst *Number
	}{
		{"completed", &r.Completed}, {"failed", &r.FailedRequests}, {"duration", &r.Duration},
		{"total_input_tokens", &r.TotalInputTokens}, {"total_output_tokens", &r.TotalOutputTokens},
		{"request_throughput", &r.RequestThroughput}, {"output_throughput", &r.OutputThroughput},
		{"total_token_throughput", &r.TotalTokenThroughput},
		{"mean_ttft_ms", &r.MeanTTFT}, {"median_ttft_ms", &r.MedianTTFT}, {"p99_ttft_ms", &r.P99TTFT},
		{"mean_tpot_ms", &r.MeanTPOT}, {"median_tpot_ms", &r.MedianTPOT}, {"p99_tpot_ms", &r.P99TPOT},
		{"mean_itl_ms", &r.MeanITL}, {"median_itl_ms", &r.MedianITL}, {"p99_itl_ms", &r.P99ITL},
		{"mean_e2el_ms", &r.MeanE2EL}, {"median_e2el_ms", &r.MedianE2EL}, {"p99_e2el_ms", &r.P99E2EL},
	}
}

// Number is a decimal as written to the downloads: the value in the canonical
// unit of its column with the decimals the log printed ("3792.50"), or empty
// when the log does not have it. In JSON it is a number, or null when empty.
type Number string

// Float returns the number and whether it is present.
func (n Number) Float() (float64, bool) {
	if n == "" {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	return f, err == nil
}

// MarshalJSON writes the decimal as a JSON number, or null.
func (n Number) MarshalJSON() ([]byte, error) {
	if n == "" {
		return []byte("null"), nil
	}
	if !isJSONNumber(string(n)) {
		return nil, fmt.Errorf("downloads: %q is not a number", string(n))
	}
	return []byte(n), nil
}

// UnmarshalJSON reads a JSON number or null.
func (n *Number) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = ""
		return nil
	}
	var f json.Number
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*n = Number(f)
	return nil
}

func metricNumber(m benchlog.Metric) Number {
	return Number(strconv.FormatFloat(m.Value, 'f', max(m.Decimals, 0), 64))
}

// Records returns the rows of one study: runs in id order, each run's logs in
// the study's workload order, a log's blocks in line order. A failed run is
// one row with failed=true and its error; a log without a result block is one
// row with its file and no metric.
//
// log_file is the log's path in the repository, results/<study>/runs/<run>/
// <workload>.log, whatever folder the results were read from: root is that
// folder as study.LoadAll was given it (slash-separated), and is replaced by
// "results".
//
// excluded maps the runs a check excluded from comparisons to the rule.
func Records(s *study.Study, root string, excluded map[string]string) []Record {
	versions := map[string]string{}
	for _, e := range s.Engines {
		versions[e.ID] = e.Version
	}
	var out []Record
	for _, run := range s.Runs {
		base := Record{
			Study: s.ID, Model: s.Model, GPU: s.Hardware.GPU, GPUsPerNode: s.Hardware.GPUsPerNode,
			Nodes: s.Hardware.Nodes, Objective: string(s.Objective),
			Run: run.ID, RunName: run.Name, Engine: run.Engine, EngineVersion: versions[run.Engine],
			Command: run.Command, GPUs: run.GPUs,
			Replicas: replicas(s.Hardware.GPUs(), run.GPUs), ServedModel: serving.Parse(run.Command).Model,
			Excluded: excluded[run.ID] != "", ExcludedBy: excluded[run.ID],
		}
		if run.Failed() {
			r := base
			r.Failed, r.Error = true, run.Error
			out = append(out, r)
			continue
		}
		// The sweep point of each block of a swept workload, repeats
		// included.
		points := map[*benchlog.Block]*study.PointBlock{}
		for i := range s.Workloads {
			for _, pb := range run.SweepBlocks(&s.Workloads[i]) {
				points[pb.Block] = &pb
				for _, rp := range pb.Repeats {
					points[rp.Block] = &pb
				}
			}
		}
		for _, lg := range run.Logs {
			var pb *study.PointBlock
			if len(lg.Blocks) > 0 && lg.Point != nil {
				pb = points[&lg.Blocks[0]]
			}
			rep := repeatsOf(s, run, lg, pb)
			if len(lg.Blocks) == 0 {
				r := base
				r.Workload, r.LogFile = lg.Workload, repoPath(lg.File, root)
				rep.set(&r)
				out = append(out, r)
				continue
			}
			for i := range lg.Blocks {
				b := &lg.Blocks[i]
				r := base
				r.Workload, r.LogFile = lg.Workload, repoPath(lg.File, root)
				rep.set(&r)
				r.LogLine = Number(strconv.Itoa(b.Line))
				if p, ok := points[b]; ok {
					r.SweepKey, r.SweepLoad = s.Workload(lg.Workload).Sweep.Key, Number(p.Point.Raw)
				}
				for _, f := range r.metricFields() {
					if m, ok := b.Metrics[f.key]; ok {
						*f.dst = metricNumber(m)
					}
				}
				out = append(out, r)
			}
		}
	}
	return out
}

// repeatColumns are the repeat columns of a log's rows.
type repeatColumns struct {
	repeat          Number
	repeats         int
	mean, halfWidth Number
}

func (c repeatColumns) set(r *Record) {
	r.Repeat, r.Repeats, r.HeadlineMean, r.HeadlineHalfWidth = c.repeat, c.repeats, c.mean, c.halfWidth
}

// repeatsOf gives the repeat columns of a log: its number, its workload's
// count of repeats in the run and, with two or more, the headline's mean
// and interval as the reports compute them (per replica). The repeats of
// a log of one load of a sweep, pb, are those of that load.
func repeatsOf(s *study.Study, run *study.Run, lg study.Log, pb *study.PointBlock) repeatColumns {
	if lg.Repeat == 0 {
		return repeatColumns{repeats: 1}
	}
	c := repeatColumns{repeat: Number(strconv.Itoa(lg.Repeat))}
	key := report.HeadlineFor(s.Objective).Key
	if lg.Point != nil {
		c.repeats = 1
		if pb != nil && pb.Repeats != nil {
			c.repeats = len(pb.Repeats)
			if v := report.PointValue(s, run, lg.Workload, *pb, key); v != nil && v.Repeated() {
				dec := max(v.Decimals, 0)
				c.mean = Number(strconv.FormatFloat(v.Measured, 'f', dec, 64))
				c.halfWidth = Number(strconv.FormatFloat(v.HalfWidth, 'f', dec, 64))
			}
		}
		return c
	}
	for _, o := range run.Logs {
		if o.Workload == lg.Workload {
			c.repeats++
		}
	}
	if v, _, _ := report.Measure(s, run, lg.Workload, key); v != nil && v.Repeated() {
		dec := max(v.Decimals, 0)
		c.mean = Number(strconv.FormatFloat(v.Measured, 'f', dec, 64))
		c.halfWidth = Number(strconv.FormatFloat(v.HalfWidth, 'f', dec, 64))
	}
	return c
}

// replicas is how many copies of a run fit the node, as the reports
// project it: 1 unless its GPUs divide the node.
func replicas(node, gpus int) int {
	if gpus > 0 && node > gpus && node%gpus == 0 {
		return node / gpus
	}
	return 1
}

// AddRecords adds a study's rows as data/<study>.csv and .json.
func AddRecords(files Output, stem string, rows []Record) error {
	csvData, jsonData, err := MarshalRecords(stem, rows)
	if err != nil {
		return err
	}
	if err := files.Add(stem+".csv", csvData); err != nil {
		return err
	}
	return files.Add(stem+".json", jsonData)
}

// MarshalRecords writes the rows as CSV (gocsv) and JSON (encoding/json,
// indented).
func MarshalRecords(stem string, rows []Record) (csvData, jsonData []byte, err error) {
	if err := checkNumbers(rows); err != nil {
		return nil, nil, fmt.Errorf("%s.json: %w", stem, err)
	}
	csvData, err = MarshalCSV(rows)
	if err != nil {
		return nil, nil, fmt.Errorf("%s.csv: %w", stem, err)
	}
	if rows == nil {
		rows = []Record{} // "[]", not "null"
	}
	jsonData, err = MarshalIndent(plainRows(rows))
	if err != nil {
		return nil, nil, fmt.Errorf("%s.json: %w", stem, err)
	}
	return csvData, jsonData, nil
}

// checkNumbers names the first metric that is not a JSON number, with its
// record and log line: encoding/json would only say which value.
func checkNumbers(rows []Record) error {
	numberType := reflect.TypeFor[Number]()
	t := reflect.TypeFor[Record]()
	for i := range rows {
		v := reflect.ValueOf(&rows[i]).Elem()
		for j := 0; j < v.NumField(); j++ {
			if v.Field(j).Type() != numberType {
				continue
			}
			n := v.Field(j).String()
			if n != "" && !isJSONNumber(n) {
				return fmt.Errorf("record %d (%s:%s), %s: %q is not a number", i+1, rows[i].LogFile, rows[i].LogLine, t.Field(j).Tag.Get("json"), n)
			}
		}
	}
	return nil
}

// spreadsheetSafeRows copies rows with every text field (not the Numbers)
// passed through benchlog.SpreadsheetText.
func spreadsheetSafeRows(rows []Record) []Record {
	safe := make([]Record, len(rows))
	for i := range rows {
		safe[i] = rows[i]
		v := reflect.ValueOf(&safe[i]).Elem()
		for j := 0; j < v.NumField(); j++ {
			if f := v.Field(j); f.Type() == reflect.TypeFor[string]() {
				f.SetString(benchlog.SpreadsheetText(f.String()))
			}
		}
	}
	return safe
}

// plainRows copies rows with every text field passed through plain.Block:
// the JSON shows a bidirectional control as U+FFFD, as the pages do.
func plainRows(rows []Record) []Record {
	out := make([]Record, len(rows))
	for i := range rows {
		out[i] = rows[i]
		v := reflect.ValueOf(&out[i]).Elem()
		for j := 0; j < v.NumField(); j++ {
			if f := v.Field(j); f.Type() == reflect.TypeFor[string]() {
				f.SetString(plain.Block(f.String()))
			}
		}
	}
	return out
}

// isJSONNumber reports whether s is a number as JSON writes one.
func isJSONNumber(s string) bool {
	if s == "" || !(s[0] == '-' || '0' <= s[0] && s[0] <= '9') || strings.TrimSpace(s) != s {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil && json.Valid([]byte(s))
}

// MarshalCSV writes the rows with gocsv, with a header line even when there
// is no row. A text cell that a spreadsheet would run as a formula (it
// starts with = + - @, a tab or a carriage return) gets a leading '; numbers
// are left as they are.
func MarshalCSV(rows []Record) ([]byte, error) {
	safe := spreadsheetSafeRows(rows)
	if len(safe) == 0 {
		// gocsv writes no header for no row: take the one of an empty row.
		out, err := gocsv.MarshalBytes([]Record{{}})
		if err != nil {
			return nil, err
		}
		header, _, _ := bytes.Cut(out, []byte("\n"))
		return append(header, '\n'), nil
	}
	return gocsv.MarshalBytes(safe)
}

// Output receives the files made; Add may be called from several
// goroutines at once.
type Output interface {
	Add(name string, data []byte) error
}

// repoPath names a file under root, the results folder as given, as the
// repository does: results/<study>/...
func repoPath(file, root string) string {
	if rest, ok := strings.CutPrefix(file, strings.TrimSuffix(root, "/")+"/"); ok && root != "" {
		return "results/" + rest
	}
	return file
}
