/* callprof: the data of one flame graph, read by static/flame.js and static/tree.js. */
window.callprofData = {"version":1,"byCalls":1,"whole":10,"total":10,
"names":[
"main",
"step",
"leaf"],
"files":["","",""],
"links":[0,1,2],
"depth":[0,1,2],
"fn":[0,1,2],
"weight":[10,9,6],
"self":[0,0,0],
"calls":[1,3,6]};
