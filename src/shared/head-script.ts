/**
 * Runs inline in <head> before first paint (kept tiny and dependency-free): marks the page as
 * scripted (html.js: controls that need JavaScript show only then), then the colour mode: the stored choice,
 * else the system preference, else light. Also hides an announcement the reader has closed, and
 * shows the wrong-base-path banner when the page is opened outside its configured base path (where
 * the bundled scripts, addressed under the base path, would not load to show it).
 */
export const HEAD_SCRIPT = `(function(){document.addEventListener('DOMContentLoaded',function(){var w=document.querySelector('.base-url-warning'),b=w&&w.getAttribute('data-base-path'),p=location.pathname;if(b&&p!==b.slice(0,-1)&&p.indexOf(b)!==0)w.hidden=false});var d=document.documentElement;d.classList.add('js');try{var t=localStorage.getItem('theme');if(t!=='light'&&t!=='dark'){t=window.matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light'}d.dataset.theme=t;d.style.colorScheme=t;var a=d.getAttribute('data-announcement');if(a&&localStorage.getItem('pybook-announcement-dismiss')===a){d.setAttribute('data-announcement-dismissed','')}if(localStorage.getItem('pybook-sidebar')==='hidden'){d.setAttribute('data-sidebar','hidden')}}catch(e){d.dataset.theme='light'}})();`;
