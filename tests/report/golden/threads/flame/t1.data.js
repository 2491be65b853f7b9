/* callprof: the data of one flame graph, read by static/flame.js and static/tree.js. */
window.callprofData = {"version":1,"byCalls":0,"whole":43000000,"total":43000000,
"names":[
"worker",
"crunch",
"hash"],
"files":["","",""],
"links":[2,3,4],
"depth":[0,1,2],
"fn":[0,1,2],
"weight":[43000000,40000000,10000000],
"self":[3000000,30000000,10000000],
"calls":[1,100,1000]};
