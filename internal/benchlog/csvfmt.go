package benchlog

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"github.com/gocarina/gocsv"
)

// GenAI-Perf and AIPerf CSV exports (docs/metrics.md, "Outputs perflab reads"):
// blank-line separated sections, each with its header: "Metric,avg,min,...",
// "Metric,Value", GPU telemetry (skipped). Lines are trimmed (docs indent
// them), "#" lines skipped, CRLF accepted. Each section is read with gocsv
// into header -> cell maps, so columns that moved between versions are found
// by name. The whole file is one block (one run).

// maxCSVLines bounds a section read into memory.
const maxCSVLines = 10000

type csvSection struct {
	lines []string
	nums  []int // line number of each
}

func (s *Scanner) scanCSV() {
	b := &Block{File: s.name, Metrics: map[string]Metric{}, Definition: CountOverDuration}
	info := &csvInfo{}
	var sec csvSection
	for {
		line, long, _, err := s.readLine()
		if err != nil {
			if err != io.EOF {
				s.err = fmt.Errorf("%s:%d: %w", s.name, s.line+1, err)
			}
			break
		}
		if long {
			continue
		}
		text := bytes.TrimSpace(bytes.TrimPrefix(line, bom))
		if len(text) > 0 && text[0] == '#' {
			continue
		}
		if len(text) == 0 {
			s.csvSection(b, info, &sec)
			continue
		}
		if len(sec.lines) < maxCSVLines {
			sec.lines = append(sec.lines, string(text))
			sec.nums = append(sec.nums, s.line)
		}
	}
	s.csvSection(b, info, &sec)
	s.eof = true
	if info.known == 0 {
		return
	}
	if info.aiperf {
		b.Format, b.Tool = FormatAIPerfCSV, ToolAIPerf
		b.Version = "2025"
		if info.sum {
			b.Version = "2026 (sum column)"
		}
	} else {
		b.Format, b.Tool = FormatGenAIPerfCSV, ToolGenAIPerf
		switch {
		case info.ns:
			b.Version = "2024-03 (ns rows)"
		case !info.tokensUnit:
			b.Version = "2024 (no token units)"
		case info.p10:
			b.Version = "2025-05+ (p10, p5, p1 columns)"
		default:
			b.Version = "2025-01+ (units on every row)"
		}
	}
	nvDefinitions(b)
	s.emit(b)
}

type csvInfo struct {
	known      int
	aiperf     bool
	sum, p10   bool
	ns         bool
	tokensUnit bool
}

// csvSection reads one section and clears it.
func (s *Scanner) csvSection(b *Block, info *csvInfo, sec *csvSection) {
	defer func() { sec.lines, sec.nums = sec.lines[:0], sec.nums[:0] }()
	if len(sec.lines) < 2 {
		return
	}
	header, err := csv.NewReader(strings.NewReader(sec.lines[0])).Read()
	if err != nil || len(header) < 2 {
		return
	}
	first := strings.ToLower(strings.TrimSpace(header[0]))
	if first != "metric" && first != "statistic" {
		return // GPU telemetry: Endpoint,GPU_Index,...
	}
	rows, err := gocsv.CSVToMaps(strings.NewReader(strings.Join(sec.lines, "\n")))
	if err != nil {
		b.Problems = append(b.Problems, &SyntaxError{File: s.name, Line: sec.nums[0],
			Msg: fmt.Sprintf("CSV section of line %d: %v; its rows are not read", sec.nums[0], err)})
		return
	}
	if b.Line == 0 {
		b.Line = sec.nums[0]
	}
	for _, h := range header[1:] {
		switch strings.ToLower(strings.TrimSpace(h)) {
		case "std":
			info.aiperf = true
		case "sum":
			info.sum = true
		case "p10":
			info.p10 = true
		}
	}
	for i, row := range rows {
		line := sec.nums[0]
		if len(rows) == len(sec.lines)-1 {
			line = sec.nums[i+1]
		}
		label := row[header[0]]
		name, unit := splitUnit(label)
		switch {
		case unit == "ns":
			info.ns = true
		case unit == "tokens":
			info.tokensUnit = true
		case name == "benchmark duration" || unit == "requests/sec":
			info.aiperf = true
		}
		known := false
		for _, h := range header[1:] {
			cell := row[h]
			b.Labels = append(b.Labels, Label{Label: label + " " + h, Value: cell, Line: line})
			if addCell(b, name, unit, nvStat(h), cell, line) {
				known = true
			}
		}
		if known {
			info.known++
		}
		b.EndLine = max(b.EndLine, line)
	}
}
