module qflame.example/examplegen

go 1.19
