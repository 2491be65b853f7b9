/* callprof: the data of one flame graph, read by static/flame.js and static/tree.js. */
window.callprofData = {"version":1,"byCalls":0,"whole":29000000,"total":29000000,
"names":[
"worker",
"crunch",
"hash"],
"files":["","",""],
"links":[2,3,4],
"depth":[0,1,2,1],
"fn":[0,1,2,2],
"weight":[29000000,20000000,6000000,8000000],
"self":[1000000,14000000,6000000,8000000],
"calls":[1,50,500,200]};
