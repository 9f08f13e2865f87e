package report

import "testing"

func TestShownDecimals(t *testing.T) {
	for _, c := range []struct {
		v    Value
		want string
	}{
		{Value{Measured: 569.2938775510206, Decimals: 13, Replicas: 1}, "569.2939"},
		{Value{Measured: 24110, Decimals: -1, Replicas: 1}, "24110"},
		{Value{Measured: 3019.19, Decimals: 2, Replicas: 2}, "3019.19 x 2"},
		{Value{Measured: 0.5, Decimals: 1, Replicas: 1}, "0.5"},
	} {
		if got := c.v.Expr(); got != c.want {
			t.Errorf("Expr of %v = %q, want %q", c.v.Measured, got, c.want)
		}
	}
}
