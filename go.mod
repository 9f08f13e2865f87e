module github.com/perflab/perflab

go 1.26.8

require (
	github.com/chromedp/cdproto v0.160.1
	github.com/chromedp/chromedp v0.23.1
	github.com/gocarina/gocsv v0.0.0-20240520201108-78e41c74b4b1
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0
	github.com/nicksnyder/go-i18n/v2 v2.7.0
	github.com/wcharczuk/go-chart/v2 v2.1.2
	github.com/yuin/goldmark v1.8.7
	golang.org/x/image v0.18.0
	golang.org/x/text v0.43.0
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	golang.org/x/sys v0.20.0 // indirect
)
