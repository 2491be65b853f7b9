/* callprof: the data of one flame graph, read by static/flame.js and static/tree.js. */
window.callprofData = {"version":1,"byCalls":0,"whole":4800000,"total":4800000,
"names":[
"main",
"\u003cscript\u003ealert(1)\u003c/script\u003e",
"std::vector\u003cint, std::allocator\u003cint\u003e \u003e::push_back(int const\u0026)",
"operator\u003c\u003c(std::ostream\u0026, Point const\u0026)",
"a\u0026b",
"`tick` \"quote\" 'apos' **bold** [link](javascript:alert(2))",
"naïve::größe\u003cλ\u003e"],
"files":["","","","","","",""],
"links":[0,1,4,2,3,5,6],
"depth":[0,1,2,1,2,1,1,1],
"fn":[0,1,2,3,2,4,5,6],
"weight":[4800000,1500000,600000,1200000,400000,700000,600000,500000],
"self":[300000,900000,600000,800000,400000,700000,600000,500000],
"calls":[1,3,100,40,300,7,2,1]};
