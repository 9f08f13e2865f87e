package render

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// A report's tables, as its templates write them.
var tableSeeds = []string{
	"| Case | Baseline (tok/s) | Change |\n|---|--:|:-:|\n| ShareGPT | [3792.50](#Lf430bec9-10 \"results/x/sharegpt.log:10 · Total · perflab check: passed\") | [▲ +22.2 % (n = 1 + 1, noise band 1.0 %)](#s \"(3535.54 / 2656.71 - 1) x 100\") |\n| Long | [1](#a) x 2 | — |\n",
	"| ベンチマークケース | 最適化後 |\n|:--|---|\n| 短いプロンプト | [≈ -0.5 %（n = 1 + 1）](#L1-2 \"t\") |\n",
	"| a | b | c |\n|---|---|---|\n| x | y > \"z\" | [1](#r \"it's q\") |\n",
	"| a |  |\n|-|-|\n|  | [2](#x) *(projected)* |\n",
	"| Version | Value |\n|---|--:|\n| v0.11.0 *(this one)* | [1](#h) |\n| x | a_b |\n",
	"|a|b|\n|-|-|\n|||\n",
	"| [SGLang](#run-s) | T |\n|---|---|\n| <b>x</b> | &amp; |\n",
	"| a | b |\n|---|--:|\n| [1885.18](#L1-16 \"t\")**（▼ +256.7 %、悪化）** | **x** y |\n",
	"| a | b |\n|---|---|\n| * x* | *x * |\n| **a* | ***a*** |\n| *a* *b* | *[l](#a)* |\n| *a*b | x*y* |\n",
	"| a | b |\n|---|---|\n| *a*b | x |\n",
	"| a | b |\n|---|---|\n| a*(b)* | x |\n",
	"| a | b |\n|---|---|\n| x*y* | (*z*) |\n",
}

// FuzzFastTables: a page's goldmark renders every table, fast or not, as
// goldmark's table extension and the page's transforms do, the all-runs
// table's attributes included.
func FuzzFastTables(f *testing.F) {
	for i, table := range tableSeeds {
		f.Add("## All {#all-runs}\n\nIntro.\n\n", table, "\n", uint8(i))
		f.Add("", table, "after\n", uint8(0))
		f.Add("text\n", table, "\n| z |\n", uint8(1))
	}
	stock, fast := reportMarkdown(), reportMarkdown(plainLinks{}, fastTables{}, fastHeadings{})
	f.Fuzz(func(t *testing.T, before, table, after string, shape uint8) {
		doc := []byte(before + table + after)
		a := fittingAttrs(stock, doc, shape)
		var want, got bytes.Buffer
		if err := stock.Convert(doc, &want, withCompare(a)...); err != nil {
			t.Skip()
		}
		if err := fast.Convert(doc, &got, withCompare(a)...); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("Markdown %q (compare %v):\ngot  %q\nwant %q", doc, a != nil, got.Bytes(), want.Bytes())
		}
	})
}

// fittingAttrs makes all-runs attributes for doc's first table, so that
// they fit it, unless shape says otherwise (odd: none; 2 mod 4: one row
// too many); their values come from shape.
func fittingAttrs(md interface{ Parser() parser.Parser }, doc []byte, shape uint8) *compareAttrs {
	if shape%2 == 1 {
		return nil
	}
	var header int
	var rows []int
	_ = gast.Walk(md.Parser().Parse(text.NewReader(doc)), func(n gast.Node, entering bool) (gast.WalkStatus, error) {
		if !entering || n.Kind().String() != "Table" || header > 0 {
			return gast.WalkContinue, nil
		}
		for row := n.FirstChild(); row != nil; row = row.NextSibling() {
			if row.Kind().String() == "TableHeader" {
				header = row.ChildCount()
			} else {
				rows = append(rows, row.ChildCount())
			}
		}
		return gast.WalkSkipChildren, nil
	})
	if header < 2 {
		return nil
	}
	if shape%4 == 2 {
		rows = append(rows, header)
	}
	v := strconv.Itoa(int(shape))
	a := &compareAttrs{table: [][2]string{{"data-compare", ""}, {"data-first", v}, {"data-label-first", `"<first> & ` + v}}}
	for i := 2; i < header; i++ {
		a.runs = append(a.runs, "run-"+strconv.Itoa(i))
	}
	for i, n := range rows {
		ra := compareRowAttrs{higherBetter: i%2 == 0, band: v + ".5"}
		if i == 1 {
			ra.unlike = "0-1"
		}
		for k := 2; k < n; k++ {
			ra.values = append(ra.values, strings.Repeat(v, k%3))
			ra.replicas = append(ra.replicas, strings.Repeat("2", k%2))
			ra.tests = append(ra.tests, strings.Repeat("1-", (k+i)%2))
		}
		a.rows = append(a.rows, ra)
	}
	return a
}

func withCompare(a *compareAttrs) []parser.ParseOption {
	if a == nil {
		return nil
	}
	pc := parser.NewContext()
	pc.Set(compareKey, a)
	return []parser.ParseOption{parser.WithContext(pc)}
}

// The fast path is taken on a report's tables, and goldmark's is on the
// others: the fuzz test above compares nothing if neither is.
func TestFastTablesTaken(t *testing.T) {
	fast := reportMarkdown(plainLinks{}, fastTables{})
	for i, seed := range tableSeeds {
		doc := fast.Parser().Parse(text.NewReader([]byte("\n" + seed + "\n")))
		_, isFast := doc.FirstChild().(*fastTable)
		if want := i < 4 || i == 7 || i == 9 || i == 11; isFast != want {
			t.Errorf("table %d read fast: %v, want %v:\n%s", i, isFast, want, seed)
		}
	}
}
