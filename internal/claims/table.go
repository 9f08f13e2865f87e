package claims

import (
	"fmt"
	"strings"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// checkTable: a change printed in a table ("5653.4 (+46.1%)" against the
// BF16 row's 3869.3) must follow from the two printed figures, whatever
// true values their rounding allows. Latency and throughput alike are
// new / old - 1.
func (r checker) checkTable(c study.Claim, res *Result) {
	from, fd, ok1 := parseNumber(c.From)
	to, td, ok2 := parseNumber(c.To)
	if !ok1 || !ok2 || from == 0 {
		res.Detail = fmt.Sprintf("the figures %q and %q are not two numbers to compare", c.From, c.To)
		return
	}
	ch := report.NewChange(report.TotalThroughput, report.Value{Measured: from, Decimals: fd, Replicas: 1, GPUs: 1}, report.Value{Measured: to, Decimals: td, Replicas: 1, GPUs: 1})
	res.Checked = true
	res.Computed, res.Match, res.Detail = checkPercent(c.Printed, ch)
	if !res.Match {
		res.Detail = strings.Replace(res.Detail, "the logs give", "the table's own figures give", 1)
	}
}
